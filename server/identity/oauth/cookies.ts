import type { FastifyReply, FastifyRequest } from 'fastify'
import { parseCookies } from '#server/web-session/cookies.ts'

/**
 * The hosted endpoints' own cookies: HttpOnly, SameSite=Lax (they must come back on the
 * top-level redirect from Google and on the username form), Secure over https.
 */
export const STATE_COOKIE = 'techlab_oauth_state'
export const SIGN_UP_COOKIE = 'techlab_oauth_signup'

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  return parseCookies(request.headers.cookie).get(name)
}

export function setCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  maxAgeSeconds: number,
): void {
  const secure = request.protocol === 'https' ? '; Secure' : ''
  reply.header('set-cookie', [
    ...cookiesAlreadySet(reply),
    `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`,
  ])
}

export function clearCookie(request: FastifyRequest, reply: FastifyReply, name: string): void {
  if (readCookie(request, name) !== undefined) setCookie(request, reply, name, '', 0)
}

function cookiesAlreadySet(reply: FastifyReply): string[] {
  const existing = reply.getHeader('set-cookie')
  if (existing === undefined) return []
  return Array.isArray(existing) ? existing : [String(existing)]
}
