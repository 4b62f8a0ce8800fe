/**
 * Amplify's cookies, as its CookieStorage writes them (js-cookie encodes names and values
 * with encodeURIComponent, leaving a few characters as they are):
 *
 * - `CognitoIdentityServiceProvider.{clientId}.LastAuthUser` = the signed-in username
 * - `CognitoIdentityServiceProvider.{clientId}.{username}.accessToken` / `.idToken` /
 *   `.refreshToken` / `.clockDrift` / …
 *
 * Pure functions, shared by the server (reading the request) and the browser (reading
 * `document.cookie`).
 */
export const AMPLIFY_COOKIE_PREFIX = 'CognitoIdentityServiceProvider'

/** A JWT is three base64url parts; anything longer than this is not one of ours. */
const MAX_TOKEN_LENGTH = 16_384

export type SessionCookies = {
  username: string
  accessToken: string | undefined
  idToken: string | undefined
}

/** Name → value of every cookie in a `Cookie` header, both URL-decoded. First one wins. */
export function parseCookies(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>()
  if (!header) return cookies
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=')
    if (equals < 0) continue
    const name = decode(pair.slice(0, equals).trim())
    let value = pair.slice(equals + 1).trim()
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
      value = value.slice(1, -1)
    }
    if (name && !cookies.has(name)) cookies.set(name, decode(value))
  }
  return cookies
}

/** The signed-in user's Amplify cookies for this app client, if there are any. */
export function readSessionCookies(
  header: string | null | undefined,
  clientId: string,
): SessionCookies | undefined {
  const cookies = parseCookies(header)
  const base = `${AMPLIFY_COOKIE_PREFIX}.${clientId}`
  const username = cookies.get(`${base}.LastAuthUser`)
  if (!username) return undefined
  const token = (name: string) => {
    const value = cookies.get(`${base}.${username}.${name}`)
    return value && value.length <= MAX_TOKEN_LENGTH ? value : undefined
  }
  return { username, accessToken: token('accessToken'), idToken: token('idToken') }
}

/** Whether the browser holds an Amplify session for this client (valid or not). */
export function hasAmplifySession(header: string | null | undefined, clientId: string): boolean {
  return readSessionCookies(header, clientId) !== undefined
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
