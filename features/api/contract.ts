import { z } from 'zod'
import { errorCodes } from '#features/error-catalogue.ts'

/**
 * One /api route as both sides know it: method, path, the zod schemas of its input and of its
 * answer. Browser-safe (zod and plain data only): the server registers the route from it
 * (server/api/serve.ts: Fastify validates and serialises with these schemas, OpenAPI is generated
 * from them) and the browser's client (app/lib/api/) types its calls and parses answers with it.
 */
export type RouteContract = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Fastify's form, relative to /api: `/courses/:courseId`. */
  path: string
  /** One line for the OpenAPI document, in Japanese like the site. */
  summary: string
  /** The route answers 401 without a session or bearer token. */
  signIn?: boolean
  params?: z.ZodObject
  query?: z.ZodObject
  body?: z.ZodType
  /** The largest request body in bytes, when smaller than Fastify's 1 MiB (413 past it). */
  bodyLimit?: number
  /** The success status; 204 answers have no body (`noContent`). */
  status: 200 | 201 | 204
  /**
   * A public read whose answer is the same for every guest: shared caches (and the server's
   * own, decision 044) may keep a guest's answer this many seconds, as they keep guest pages.
   */
  guestCacheSeconds?: number
  response: z.ZodType
}

/** How long a shared cache may keep what every guest sees alike: public pages and reads. */
export const GUEST_CACHE_SECONDS = 5

/** Keeps a contract's literal types (the path, the schemas) for the server and the client. */
export function route<const C extends RouteContract>(contract: C): C {
  return contract
}

/** An id in an /api path (content ids, usernames): anything longer is not ours. */
export const pathId = z.string().min(1).max(64)

/** The answer of a 204: no body. */
export const noContent = z.void()

/** The API's one error answer; 400s carry each field's messages (server/api/api-error.ts). */
export const apiErrorBody = z.object({
  error: z.object({
    /** A code of the error catalogue, or Fastify's own for a request it could not read. */
    code: z.union([z.enum(errorCodes), z.string().regex(/^FST_/)]),
    message: z.string(),
    fields: z.record(z.string(), z.array(z.string())).optional(),
    /** BUSY (503): seconds before trying again, as the Retry-After header also says. */
    retryAfterSeconds: z.number().int().positive().optional(),
  }),
})

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined
type Sent<S> = S extends z.ZodType ? z.input<S> : undefined

/**
 * What a route's handler receives: its input after validation (defaults, coercions and transforms
 * applied), and `sent`, the same input as it arrived (valid), for a feature function that takes
 * `z.input<…>` and parses at its own boundary.
 */
export type RouteInput<C extends RouteContract> = {
  params: Parsed<C['params']>
  query: Parsed<C['query']>
  body: Parsed<C['body']>
  sent: { params: Sent<C['params']>; query: Sent<C['query']>; body: Sent<C['body']> }
}

/** What a caller sends: the input side of the schemas (before coercion and defaults). */
export type RouteRequest<C extends RouteContract> = {
  [K in 'params' | 'query' | 'body' as C[K] extends z.ZodType ? K : never]: Sent<C[K]>
}

/** What the route answers (nothing, `void`, for a 204). */
export type RouteResult<C extends RouteContract> = z.output<C['response']>
