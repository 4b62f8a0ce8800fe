/**
 * The browser's side of `/realtime` (server/realtime, docs/decisions/036): one socket per tab,
 * reconnected with exponential backoff and jitter when it drops. Events are hints: whenever some
 * may have been missed (each (re)connection, and every `pollMs` while there is no socket) the
 * listeners are asked to catch up through the API from what they last saw, so a page works,
 * more slowly, with no socket at all. Loaded on first use (app/lib/realtime/index.ts).
 */

export type ConnectionOptions = {
  /** `ws(s)://host/realtime`. */
  url: string
  /** An event frame `{ type, data }` arrived. */
  onEvent(type: string, data: unknown): void
  /** Events may have been missed: read what changed since what was last seen. */
  onCatchUp(): void
  /** A socket that carries events opened (true) or closed (false). */
  onLiveChange?(live: boolean): void
  /** Tests and non-browser clients: how to open the socket (default: the browser's WebSocket). */
  createSocket?: (url: string) => WebSocket
  /**
   * Whether a handshake can succeed now (the browser still holds a session): when not, no socket
   * is tried (a refused handshake is a console error the page cannot silence); polling goes on.
   */
  mayConnect?: () => boolean
  random?: () => number
  /** How often to catch up while there is no socket. */
  pollMs?: number
}

export type Connection = {
  readonly live: boolean
  /** Closes the socket and stops reconnecting and polling. */
  close(): void
}

/** Close codes of the server (server/realtime/protocol.ts CLOSE_CODES) that change the retry. */
const GOING_AWAY = 1001
const SESSION_EXPIRED = 4401
const TOO_MANY_SOCKETS = 4409

const FIRST_RETRY_MS = 500
const MAX_RETRY_MS = 30_000
/** A socket that stayed up this long was healthy: the next drop starts the backoff again. */
const STABLE_MS = 10_000
/** How long past a ping the server's answer may take before the socket is taken as dead. */
const PONG_GRACE_MS = 10_000
const DEFAULT_POLL_MS = 10_000

/**
 * The wait before reconnection attempt `attempt` (0-based): doubling from 0.5 s up to 30 s, of
 * which a random half is jitter, so that the tabs a server restart disconnected at once do not
 * all come back at once.
 */
export function retryDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempt, 16))
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

export function openConnection(options: ConnectionOptions): Connection {
  const random = options.random ?? Math.random
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS
  const createSocket =
    options.createSocket ??
    (typeof WebSocket === 'undefined' ? undefined : (url: string) => new WebSocket(url))
  let socket: WebSocket | undefined
  let live = false
  let stopped = false
  let attempt = 0
  let liveSince = 0
  let retry: ReturnType<typeof setTimeout> | undefined
  let poll: ReturnType<typeof setInterval> | undefined
  let heartbeat: ReturnType<typeof setInterval> | undefined
  let lastHeard = 0

  const setLive = (value: boolean) => {
    if (live === value) return
    live = value
    options.onLiveChange?.(value)
  }

  function startPolling() {
    poll ??= setInterval(() => options.onCatchUp(), pollMs)
  }
  function stopPolling() {
    clearInterval(poll)
    poll = undefined
  }

  function connect() {
    retry = undefined
    if (stopped || !createSocket) return
    if (options.mayConnect && !options.mayConnect()) return dropped(undefined)
    let opened: WebSocket
    try {
      opened = createSocket(options.url)
    } catch {
      return dropped(undefined)
    }
    socket = opened
    opened.onmessage = (message) => {
      lastHeard = Date.now()
      let frame: { type?: unknown; data?: unknown }
      try {
        frame = JSON.parse(String(message.data))
      } catch {
        return
      }
      if (frame.type === 'ready') return ready(opened, frame.data)
      if (frame.type === 'pong' || typeof frame.type !== 'string') return
      options.onEvent(frame.type, frame.data)
    }
    // A refused or failed handshake: the close that follows decides what happens next.
    opened.onerror = () => {}
    opened.onclose = (event) => {
      if (socket === opened) dropped(event.code)
    }
  }

  function ready(opened: WebSocket, data: unknown) {
    liveSince = Date.now()
    setLive(true)
    stopPolling()
    const serverBeat = (data as { heartbeatMs?: unknown } | undefined)?.heartbeatMs
    const every = typeof serverBeat === 'number' && serverBeat >= 1_000 ? serverBeat : 30_000
    clearInterval(heartbeat)
    heartbeat = setInterval(() => {
      // Nothing heard since well before the last ping: the connection is gone without a close
      // (sleep, a changed network), which the browser may not notice for minutes.
      if (Date.now() - lastHeard > every + PONG_GRACE_MS) {
        opened.close()
        if (socket === opened) dropped(undefined)
        return
      }
      opened.send('{"type":"ping"}')
    }, every)
    // What happened between the page's render (or the last socket) and now.
    options.onCatchUp()
  }

  function dropped(code: number | undefined) {
    socket = undefined
    clearInterval(heartbeat)
    heartbeat = undefined
    const wasLive = live
    const wasStable = live && Date.now() - liveSince >= STABLE_MS
    setLive(false)
    if (stopped) return
    startPolling()
    // A session that expired while open is refreshed by now; one the handshake was refused for
    // (signed out, or not refreshed yet) backs off like any failed attempt.
    if (wasStable || code === GOING_AWAY || (code === SESSION_EXPIRED && wasLive)) attempt = 0
    // Another tab holds the user's last allowed socket: polling serves this one for a while.
    const wait = code === TOO_MANY_SOCKETS ? MAX_RETRY_MS * 2 : retryDelay(attempt, random)
    attempt += 1
    clearTimeout(retry)
    retry = setTimeout(connect, wait)
  }

  const online = () => {
    if (live || stopped || !retry) return
    clearTimeout(retry)
    attempt = 0
    connect()
  }
  if (typeof window !== 'undefined') window.addEventListener('online', online)

  if (createSocket) connect()
  else startPolling()

  return {
    get live() {
      return live
    },
    close() {
      stopped = true
      clearTimeout(retry)
      clearInterval(heartbeat)
      stopPolling()
      if (typeof window !== 'undefined') window.removeEventListener('online', online)
      const open = socket
      socket = undefined
      open?.close(1000)
      setLive(false)
    },
  }
}
