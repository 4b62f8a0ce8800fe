import type { FastifyReply, FastifyRequest } from 'fastify'
import { isAnonymous } from '#server/web-session/cookies.ts'
import { ApiError } from './api-error.ts'

/**
 * The API's browser-side defences (docs/decisions/020). Cookies ride along on requests other
 * sites make, so a write that carries them must come from the site's own pages; SameSite=Lax
 * is the only other guard, and it lets same-site origins (a subdomain serving uploads) through.
 */

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Whether the browser says the request came from a page of this origin. `Sec-Fetch-Site` first
 * (`none` is the user's own doing, such as the address bar), then `Origin`; a request with
 * neither is not from a browser that would have attached someone's cookies unseen.
 */
export function fromOwnPages(request: FastifyRequest, siteOrigin: string): boolean {
  const site = request.headers['sec-fetch-site']
  if (site !== undefined) return site === 'same-origin' || site === 'none'
  const origin = request.headers.origin
  if (origin === undefined) return true
  return origin === siteOrigin || origin === `${request.protocol}://${request.host}`
}

/** `onRequest`: refuses writes other sites make with the visitor's cookies. */
export function refuseCrossSiteWrites(siteOrigin: string) {
  return async (request: FastifyRequest) => {
    if (READS.has(request.method)) return
    // An API client's bearer token is never attached by a browser on another site's behalf.
    if (request.headers.authorization !== undefined && request.headers.cookie === undefined) return
    if (fromOwnPages(request, siteOrigin)) return
    throw new ApiError('CROSS_SITE_REQUEST')
  }
}

/** `onSend`: an answer for someone signed in is theirs alone; no cache may keep it. */
export async function keepSignedInAnswersPrivate(request: FastifyRequest, reply: FastifyReply) {
  if (!isAnonymous(request.headers)) {
    reply.header('cache-control', 'private, no-store')
  }
}
