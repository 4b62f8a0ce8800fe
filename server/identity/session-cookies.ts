/**
 * Amplify's CookieStorage names every cookie of a signed-in session
 * `CognitoIdentityServiceProvider.{clientId}.…`; their presence is what makes a request
 * personal. Other cookies (analytics, consent banners) leave a visitor a guest.
 */
export const SESSION_COOKIE_PREFIX = 'CognitoIdentityServiceProvider.'

export function hasSessionCookie(cookieHeader: string | undefined): boolean {
  if (!cookieHeader) return false
  return cookieHeader.split(';').some((pair) => pair.trimStart().startsWith(SESSION_COOKIE_PREFIX))
}
