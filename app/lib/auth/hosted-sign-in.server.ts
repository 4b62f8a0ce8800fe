import { SIGN_UP_COOKIE } from '#server/identity/oauth/cookies.ts'
import { parseCookies } from './session-cookies.ts'

/** Does this browser have a first Google sign-in waiting for its username? */
export function hasPendingGoogleSignUp(request: Request): boolean {
  return parseCookies(request.headers.get('cookie')).has(SIGN_UP_COOKIE)
}
