import { parseCookie } from 'cookie'

/**
 * Whether this browser has the cookie (by its decoded name, as js-cookie writes it). The name
 * comes from the server's identity settings (`sessionCookie`), never spelled here. A module of
 * its own: the session keeper on every page asks, and must not download the sign-in messages.
 */
export function browserHasCookie(cookieName: string): boolean {
  return Object.keys(parseCookie(document.cookie)).some((name) => decodedName(name) === cookieName)
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name)
  } catch {
    return name
  }
}
