import type { RawData, WebSocket } from 'ws'
import { z } from 'zod'
import { CLOSE_CODES } from './protocol.ts'

/** Frames one socket may send per window before it is closed (pings come every 25 s or so). */
const FRAMES_PER_WINDOW = 20
const FRAME_WINDOW_MS = 10_000
/** Unsent bytes a socket may have queued before its client is taken as not keeping up. */
const MAX_BUFFERED_BYTES = 1024 * 1024

/** What a client may send: `{ "type": "ping" }`, answered by `{ "type": "pong" }`. */
const clientFrame = z.strictObject({ type: z.literal('ping') })

const PONG = JSON.stringify({ type: 'pong' })

export type SocketUser = { userId: string; expiresAt: number }

export type Connection = {
  socket: WebSocket
  userId: string
  alive: boolean
  expiresAt: number
  frames: number
  windowStartedAt: number
  expiry: NodeJS.Timeout
}

/** The sockets open on this instance, by user, and what each may do once accepted. */
export type Connections = {
  readonly sockets: Map<string, Set<Connection>>
  /** Sockets open on this instance. */
  readonly open: number
  /** Set once the server stops: no socket is accepted after. */
  stopping: boolean
  /** Takes a handshake that passed every check; closes it if the user has too many sockets. */
  accept(socket: WebSocket, user: SocketUser): void
  /** Sends one text frame, closing a socket whose client does not keep up. */
  send(connection: Connection, frame: string | Buffer): void
  /** Closes every open socket with `code`. */
  closeAll(code: number, reason: string): void
}

export function openConnections(options: {
  socketsPerUser: number
  heartbeatMs: number
  now: () => number
}): Connections {
  const sockets = new Map<string, Set<Connection>>()
  let open = 0

  function send(connection: Connection, frame: string | Buffer) {
    const { socket } = connection
    if (socket.readyState !== socket.OPEN) return
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.close(CLOSE_CODES.tooSlow, 'not keeping up')
      return
    }
    // Always a text frame: events are JSON, even when handed over already encoded.
    socket.send(frame, { binary: false })
  }

  function accept(socket: WebSocket, user: SocketUser) {
    const own = sockets.get(user.userId) ?? new Set<Connection>()
    if (connections.stopping) return socket.close(CLOSE_CODES.goingAway, 'server stopping')
    if (own.size >= options.socketsPerUser) {
      return socket.close(CLOSE_CODES.tooManySockets, 'too many connections')
    }
    const remaining = user.expiresAt - options.now()
    const connection: Connection = {
      socket,
      userId: user.userId,
      alive: true,
      expiresAt: user.expiresAt,
      frames: 0,
      windowStartedAt: Date.now(),
      expiry: setTimeout(
        () => socket.close(CLOSE_CODES.sessionExpired, 'session expired'),
        Math.max(0, Math.min(remaining, 2 ** 31 - 1)),
      ),
    }
    connection.expiry.unref()
    own.add(connection)
    sockets.set(user.userId, own)
    open += 1
    socket.on('pong', () => {
      connection.alive = true
    })
    socket.on('message', (data, isBinary) => received(connection, data, isBinary, send))
    socket.on('close', () => {
      clearTimeout(connection.expiry)
      own.delete(connection)
      if (own.size === 0 && sockets.get(user.userId) === own) sockets.delete(user.userId)
      open -= 1
    })
    socket.send(JSON.stringify({ type: 'ready', data: { heartbeatMs: options.heartbeatMs } }))
  }

  const connections: Connections = {
    sockets,
    get open() {
      return open
    },
    stopping: false,
    accept,
    send,
    closeAll(code, reason) {
      for (const users of sockets.values()) {
        for (const connection of users) connection.socket.close(code, reason)
      }
    },
  }
  return connections
}

/** A client's frame: counted against the socket's allowance, and a ping answered with a pong. */
function received(
  connection: Connection,
  data: RawData,
  isBinary: boolean,
  send: Connections['send'],
) {
  const { socket } = connection
  connection.alive = true
  const now = Date.now()
  if (now - connection.windowStartedAt >= FRAME_WINDOW_MS) {
    connection.windowStartedAt = now
    connection.frames = 0
  }
  connection.frames += 1
  if (connection.frames > FRAMES_PER_WINDOW) {
    return socket.close(CLOSE_CODES.tooManyFrames, 'too many frames')
  }
  if (isBinary) return socket.close(CLOSE_CODES.unsupportedData, 'text frames only')
  let frame: unknown
  try {
    frame = JSON.parse(String(data))
  } catch {
    return socket.close(CLOSE_CODES.malformed, 'malformed frame')
  }
  if (!clientFrame.safeParse(frame).success) {
    return socket.close(CLOSE_CODES.malformed, 'malformed frame')
  }
  send(connection, PONG)
}
