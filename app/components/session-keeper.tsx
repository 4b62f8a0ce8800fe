import { useEffect } from 'react'
import { useRevalidator } from 'react-router'
import { browserHasCookie } from '#app/lib/auth/browser-cookie.ts'
import { loadAuth } from '#app/lib/auth/load-auth.ts'
import { setRealtimeSessionCookie } from '#app/lib/realtime/index.ts'

/**
 * Refresh this long before the access token expires, so the server never sees it expired:
 * five minutes, or a quarter of the token's life when it is shorter than twenty minutes.
 */
const REFRESH_MARGIN_MS = 5 * 60_000

export function refreshDelay(issuedAt: number, expiresAt: number, now: number): number {
  const margin = Math.min(REFRESH_MARGIN_MS, (expiresAt - issuedAt) / 4)
  return Math.max(0, expiresAt - margin - now)
}
/** setTimeout's ceiling (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * Keeps the server's view of the session current. The server renders whoever the cookies
 * name; the access token in them lasts an hour, so shortly before it expires (or at once,
 * when the browser holds a session the server could not accept, e.g. after the hour
 * passed) Amplify refreshes the tokens with the refresh token, and the page's data is
 * loaded again. A refresh that is refused (signed out elsewhere) leaves the visitor a guest.
 */
export function SessionKeeper({
  sessionCookie,
  issuedAt,
  expiresAt,
}: {
  /** The cookie naming the signed-in user (the server's identity settings). */
  sessionCookie: string
  issuedAt: number | undefined
  expiresAt: number | undefined
}) {
  const revalidator = useRevalidator()
  const { revalidate } = revalidator

  useEffect(() => {
    setRealtimeSessionCookie(sessionCookie)
    const inBrowser = browserHasCookie(sessionCookie)
    if (!inBrowser) {
      // Signed out in another tab: the page still shows the user until it reloads its data.
      if (expiresAt !== undefined) void revalidate()
      return
    }
    let cancelled = false
    const refresh = async () => {
      try {
        const auth = await loadAuth()
        await auth.cognitoUserPoolsTokenProvider.getTokens({ forceRefresh: true })
      } catch {
        // Network trouble keeps the tokens for the next try; a refused refresh cleared them.
      }
      if (!cancelled) void revalidate()
    }
    if (expiresAt === undefined || issuedAt === undefined) {
      // Once per page load for a session the server did not accept: never a loop.
      if (refreshedWithoutUser.has(sessionCookie)) return
      refreshedWithoutUser.add(sessionCookie)
      void refresh()
      return () => {
        cancelled = true
      }
    }
    refreshedWithoutUser.delete(sessionCookie)
    const wait = refreshDelay(issuedAt, expiresAt, Date.now())
    const timer = setTimeout(refresh, Math.min(wait, MAX_TIMER_MS))
    return () => {
      cancelled = true
      clearTimeout(timer)
    }
  }, [sessionCookie, issuedAt, expiresAt, revalidate])

  return null
}

const refreshedWithoutUser = new Set<string>()
