import { useEffect, useRef } from 'react'

/** How often a page asks the API what changed while no live connection tells it. */
export const POLL_MS = 3_000

/**
 * Calls `catchUp` whenever what the page shows may be stale: every POLL_MS while the tab is
 * visible, and as soon as it becomes visible again. The page reads what changed from the API
 * (a room's changes after the version it has, /dms' rooms), so nothing is lost between calls.
 */
export function useCatchUpPolling(catchUp: () => void, enabled = true): void {
  const latest = useRef(catchUp)
  latest.current = catchUp
  useEffect(() => {
    if (!enabled) return
    const tick = () => {
      if (document.visibilityState === 'visible') latest.current()
    }
    const timer = setInterval(tick, POLL_MS)
    document.addEventListener('visibilitychange', tick)
    return () => {
      clearInterval(timer)
      document.removeEventListener('visibilitychange', tick)
    }
  }, [enabled])
}
