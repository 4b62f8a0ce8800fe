import { hasAnySessionCookie } from '#app/lib/auth/session-cookies.ts'

/**
 * Amplify's CookieStorage names every cookie of a signed-in session
 * `CognitoIdentityServiceProvider.{clientId}.…`; their presence is what makes a request
 * personal. Other cookies (analytics, consent banners) leave a visitor a guest. Read with the
 * session reader's own parser, so that both agree on every name.
 */
export function hasSessionCookie(cookieHeader: string | undefined): boolean {
  return hasAnySessionCookie(cookieHeader)
}
