import { trackRequest } from '#app/lib/loading-progress.ts'
import type { RouteContract, RouteRequest, RouteResult } from '#features/api/contract.ts'
import type { apiRoutes } from '#features/api/routes.ts'

type ApiRoutes = typeof apiRoutes

/**
 * A route by name (`'people.follow'`), or its contract itself. The contracts are zod schemas, and
 * a page a guest reads must not download zod before the reader acts (the first-load
 * budget): its components name routes, and the contracts load on the first call. Editors, which
 * load zod anyway, may pass the contract.
 */
export type RouteKey = {
  [G in keyof ApiRoutes]: `${G & string}.${keyof ApiRoutes[G] & string}`
}[keyof ApiRoutes]

/** The contract a route key names. */
export type ContractAt<K extends RouteKey> = K extends `${infer G}.${infer N}`
  ? G extends keyof ApiRoutes
    ? N extends keyof ApiRoutes[G]
      ? Extract<ApiRoutes[G][N], RouteContract>
      : never
    : never
  : never

export type RouteRef<C extends RouteContract> = C | RouteKey

let contracts: Promise<ApiRoutes> | undefined

async function contractOf<C extends RouteContract>(ref: RouteRef<C>): Promise<C> {
  if (typeof ref !== 'string') return ref
  contracts ??= import('#features/api/routes.ts').then(
    (module) => module.apiRoutes,
    (error: unknown) => {
      contracts = undefined
      throw error
    },
  )
  const [group, name] = ref.split('.') as [keyof ApiRoutes, string]
  const contract = ((await contracts)[group] as Record<string, RouteContract>)[name]
  if (!contract) throw new Error(`no /api route named ${ref}`)
  return contract as C
}

/** An /api answer that was not 2xx, with the API's own error code and field errors. */
export class ApiRequestError extends Error {
  override name = 'ApiRequestError'
  readonly status: number
  readonly code: string
  readonly fields: Record<string, string[]> | undefined

  constructor(status: number, code: string, message: string, fields?: Record<string, string[]>) {
    super(message)
    this.status = status
    this.code = code
    this.fields = fields
  }
}

export type LooseRequest = {
  params?: Record<string, string>
  query?: Record<string, unknown>
  body?: unknown
}

/** The arguments after the contract: none when the route takes no input. */
type RequestArgument<C extends RouteContract> = keyof RouteRequest<C> extends never
  ? []
  : [request: RouteRequest<C>]

/** The route's address: its path with the parameters filled in, and the query string. */
function addressOf(contract: RouteContract, { params, query }: LooseRequest): string {
  const path = contract.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name]
    if (value === undefined) throw new Error(`${contract.path}: パラメーター ${name} がありません`)
    return encodeURIComponent(value)
  })
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.set(name, String(value))
  }
  return search.size > 0 ? `${path}?${search}` : path
}

/**
 * Calls one /api route from the browser (base path `/api` unless a gateway is configured), with
 * the loading bar showing while the request is outstanding. The request is typed by the route's
 * contract (features/api) and the answer is parsed with its response schema: the same schemas the
 * server validates and serialises with, so a renamed field breaks `tsc` here, not the page.
 */
export function callApi<K extends RouteKey>(
  baseUrl: string,
  route: K,
  ...[request]: RequestArgument<ContractAt<K>>
): Promise<RouteResult<ContractAt<K>>>
export function callApi<C extends RouteContract>(
  baseUrl: string,
  contract: C,
  ...[request]: RequestArgument<C>
): Promise<RouteResult<C>>
export function callApi(
  baseUrl: string,
  contract: RouteRef<RouteContract>,
  request?: LooseRequest,
): Promise<unknown> {
  return callRoute(baseUrl, contract, request ?? {})
}

/**
 * `callApi` for code generic over several routes of one shape (the editors' kinds, the lists):
 * the input is checked by the server alone, the answer still by the route's response schema.
 */
export async function callRoute<C extends RouteContract>(
  baseUrl: string,
  ref: RouteRef<C>,
  request: LooseRequest,
): Promise<RouteResult<C>> {
  const contract = await contractOf(ref)
  const schema: C['response'] = contract.response
  return send(baseUrl, contract, request).then((answer) => schema.parse(answer))
}

/** One request, the answer's JSON (null for none); an error answer throws ApiRequestError. */
function send(baseUrl: string, contract: RouteContract, request: LooseRequest): Promise<unknown> {
  return trackRequest(async () => {
    const response = await fetch(`${baseUrl}${addressOf(contract, request)}`, {
      method: contract.method,
      headers: {
        Accept: 'application/json, text/plain',
        ...(request.body !== undefined && { 'Content-Type': 'application/json' }),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    })
    if (response.status === 204) return undefined
    const body: unknown = await response.json().catch(() => null)
    if (!response.ok) {
      const { apiErrorBody } = await import('#features/api/contract.ts')
      const error = apiErrorBody.safeParse(body).data?.error
      throw new ApiRequestError(
        response.status,
        error?.code ?? 'HTTP_ERROR',
        error?.message ?? `HTTP ${response.status}`,
        error?.fields,
      )
    }
    return body
  })
}
