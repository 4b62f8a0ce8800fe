/**
 * The site's cookies, read in one place: Amplify's, as its CookieStorage writes them
 * (js-cookie encodes names and values with encodeURIComponent, leaving a few characters as
 * they are), and any other by name.
 *
 * - `CognitoIdentityServiceProvider.{clientId}.LastAuthUser` = the signed-in username
 * - `CognitoIdentityServiceProvider.{clientId}.{username}.accessToken` / `.idToken` /
 *   `.refreshToken` / `.clockDrift` / …
 *
 * The browser learns the one name it checks (`lastAuthUserCookie`) from the root loader's
 * identity settings, never by spelling it itself.
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

/** The cookie naming the signed-in user: present exactly while Amplify holds a session. */
export const lastAuthUserCookie = (clientId: string) =>
  `${AMPLIFY_COOKIE_PREFIX}.${clientId}.LastAuthUser`

/**
 * Whether the request carries any Amplify session cookie (of any client, valid or not): what
 * makes a request personal (the guest page cache, private caching, cross-site checks). Other
 * cookies (analytics, consent banners) leave a visitor a guest.
 */
export function isSessionRequest(header: string | null | undefined): boolean {
  for (const name of parseCookies(header).keys()) {
    if (name.startsWith(`${AMPLIFY_COOKIE_PREFIX}.`)) return true
  }
  return false
}

/**
 * A request with neither a bearer token nor a session cookie: what it is answered is the same
 * for every such visitor, so a shared cache may keep it (the page cache, guest API answers).
 */
export function isAnonymous(headers: { authorization?: string; cookie?: string }): boolean {
  return headers.authorization === undefined && !isSessionRequest(headers.cookie)
}

/** The signed-in user's Amplify cookies for this app client, if there are any. */
export function readSessionCookies(
  header: string | null | undefined,
  clientId: string,
): SessionCookies | undefined {
  const cookies = parseCookies(header)
  const base = `${AMPLIFY_COOKIE_PREFIX}.${clientId}`
  const username = cookies.get(lastAuthUserCookie(clientId))
  if (!username) return undefined
  const token = (name: string) => {
    const value = cookies.get(`${base}.${username}.${name}`)
    return value && value.length <= MAX_TOKEN_LENGTH ? value : undefined
  }
  return { username, accessToken: token('accessToken'), idToken: token('idToken') }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
