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
import { parseCookie } from 'cookie'

export const AMPLIFY_COOKIE_PREFIX = 'CognitoIdentityServiceProvider'

/** A JWT is three base64url parts; anything longer than this is not one of ours. */
const MAX_TOKEN_LENGTH = 16_384

export type SessionCookies = {
  username: string
  accessToken: string | undefined
  idToken: string | undefined
}

/**
 * Name → value of every cookie in a `Cookie` header, both URL-decoded (as js-cookie reads
 * them). First one wins. The one parser of the request's cookies: whoever decides whether a
 * request is personal (the guest page cache, private caching) must see what the session
 * reader sees, or a name like `CognitoIdentityServiceProvider%2E…` is a session to one and a
 * guest to the other.
 */
export function parseCookies(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>()
  if (!header) return cookies
  for (const [rawName, value] of Object.entries(parseCookie(header))) {
    const name = decode(rawName)
    if (value === undefined || !name || cookies.has(name)) continue
    cookies.set(name, value.length >= 2 && /^".*"$/.test(value) ? value.slice(1, -1) : value)
  }
  return cookies
}

/** Whether the request carries any Amplify session cookie (of any client, valid or not). */
export function hasAnySessionCookie(header: string | null | undefined): boolean {
  for (const name of parseCookies(header).keys()) {
    if (name.startsWith(`${AMPLIFY_COOKIE_PREFIX}.`)) return true
  }
  return false
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
