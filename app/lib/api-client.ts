import { trackRequest } from './loading-progress.ts'

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

/**
 * Calls the product API from the browser (base path `/api` unless a gateway is configured),
 * with the loading bar showing while the request is outstanding.
 */
export function apiFetch<T>(baseUrl: string, path: string, init: RequestInit = {}): Promise<T> {
  return trackRequest(async () => {
    const response = await fetch(`${baseUrl}${path}`, {
      ...init,
      headers: { Accept: 'application/json, text/plain', ...init.headers },
    })
    const body = await response.json().catch(() => null)
    if (!response.ok) {
      const error = body?.error
      throw new ApiRequestError(
        response.status,
        error?.code ?? 'HTTP_ERROR',
        error?.message ?? `HTTP ${response.status}`,
        error?.fields,
      )
    }
    return body as T
  })
}
