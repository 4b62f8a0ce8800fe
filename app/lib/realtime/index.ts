import { useEffect, useRef } from 'react'
import { browserHasCookie } from '#app/lib/auth/browser-cookie.ts'
import type { Connection } from './connection.ts'
import type { RealtimeEvents } from './events.ts'

/**
 * Live events for the page (docs/decisions/036): `subscribe(type, handler)` and
 * `onCatchUp(handler)`, or their hooks. One socket per tab, opened once the page is idle and
 * something listens, closed when nothing does; the connection code and the events' schemas
 * load only then, so no page pays for them on its first load.
 */

export type { RealtimeEvents }
export type RealtimeEventType = keyof RealtimeEvents

type Handler = (data: never) => void

const handlers = new Map<string, Set<Handler>>()
const catchUps = new Set<() => void>()
let connection: Connection | undefined
/** The cookie naming the signed-in user, as the session keeper was told it (root data). */
let sessionCookie: string | undefined

/** Called by the session keeper: no socket is tried while the browser holds no session. */
export function setRealtimeSessionCookie(name: string): void {
  sessionCookie = name
}
let starting = false
let closing: ReturnType<typeof setTimeout> | undefined

/** A route change unmounts and mounts listeners: keep the socket through it. */
const CLOSE_AFTER_MS = 2_000

function listeners(): number {
  let count = catchUps.size
  for (const set of handlers.values()) count += set.size
  return count
}

function socketUrl(): string {
  const { protocol, host } = window.location
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/realtime`
}

function whenIdle(work: () => void) {
  if ('requestIdleCallback' in window) window.requestIdleCallback(work, { timeout: 3_000 })
  else setTimeout(work, 1_000)
}

function ensureConnection() {
  clearTimeout(closing)
  closing = undefined
  if (connection || starting || typeof window === 'undefined') return
  starting = true
  whenIdle(async () => {
    try {
      const [{ openConnection }, { parseEvent }] = await Promise.all([
        import('./connection.ts'),
        import('./events.ts'),
      ])
      if (listeners() === 0) return
      connection = openConnection({
        url: socketUrl(),
        mayConnect: () => sessionCookie === undefined || browserHasCookie(sessionCookie),
        onEvent(type, data) {
          const parsed = parseEvent(type, data)
          if (!parsed.ok) return
          for (const handler of handlers.get(type) ?? [])
            (handler as (data: unknown) => void)(parsed.data)
        },
        onCatchUp() {
          for (const handler of catchUps) handler()
        },
      })
    } catch {
      // The chunks did not load (offline, a deploy replaced them): the next listener tries again.
    } finally {
      starting = false
    }
  })
}

function releaseConnection() {
  if (listeners() > 0 || closing) return
  closing = setTimeout(() => {
    closing = undefined
    if (listeners() > 0) return
    connection?.close()
    connection = undefined
  }, CLOSE_AFTER_MS)
}

/** Calls `handler` with the data of every `type` event for the signed-in user. */
export function subscribe<Type extends RealtimeEventType>(
  type: Type,
  handler: (data: RealtimeEvents[Type]) => void,
): () => void {
  const set = handlers.get(type) ?? new Set<Handler>()
  handlers.set(type, set)
  set.add(handler)
  ensureConnection()
  return () => {
    set.delete(handler)
    releaseConnection()
  }
}

/**
 * Calls `handler` whenever events may have been missed: once the socket is up (and after every
 * reconnection), and periodically while there is none. It reads what changed from the API.
 */
export function onCatchUp(handler: () => void): () => void {
  catchUps.add(handler)
  ensureConnection()
  return () => {
    catchUps.delete(handler)
    releaseConnection()
  }
}

/** `subscribe` for a component: listens while mounted and `enabled`, always with the latest handler. */
export function useRealtimeEvent<Type extends RealtimeEventType>(
  type: Type,
  handler: (data: RealtimeEvents[Type]) => void,
  enabled = true,
): void {
  const latest = useRef(handler)
  latest.current = handler
  useEffect(() => {
    if (!enabled) return
    return subscribe(type, (data) => latest.current(data))
  }, [type, enabled])
}

/** `onCatchUp` for a component. */
export function useCatchUp(handler: () => void, enabled = true): void {
  const latest = useRef(handler)
  latest.current = handler
  useEffect(() => {
    if (!enabled) return
    return onCatchUp(() => latest.current())
  }, [enabled])
}
