import websocket from '@fastify/websocket'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { RawData, WebSocket } from 'ws'
import { z } from 'zod'
import { ApiError } from '#server/api/api-error.ts'
import { fromOwnPages } from '#server/api/cross-site.ts'
import { type FanOut, inProcessFanOut, redisFanOut } from './fan-out.ts'

/**
 * The `/realtime` WebSocket endpoint and its publish seam (docs/decisions/036). Product code
 * publishes facts for users (`publish(userIds, event)`); every open socket of those users, on
 * any instance, receives the event as one JSON text frame `{ "type", "data" }`. Events are
 * hints: what they announce is stored first and can always be read again through the API, so a
 * client that missed some (a dropped connection, Redis down) catches up from what it last saw.
 * This module knows nothing of products: it never imports features.
 */

export type RealtimeEvent = { type: string; data: unknown }

export type RealtimePublisher = {
  /** Delivers the event to every open socket of these users on every instance; never throws. */
  publish(userIds: readonly string[], event: RealtimeEvent): void
  /**
   * Closes every open socket of these users on every instance with `code` (an account
   * suspended: its sessions are revoked, so the reconnect is refused too); never throws.
   */
  disconnect(userIds: readonly string[], code: number): void
}

export type RealtimeService = RealtimePublisher & {
  /** Whether events reach every instance (always, without Redis). */
  readonly live: boolean
  /** Sockets open on this instance. */
  readonly connections: number
  /** Closes every socket (1001) and refuses new ones: the first step of a graceful stop. */
  shutdown(): void
}

/** Close codes a client acts on; 1009 (frame too large) and 1007 (not UTF-8) come from `ws`. */
export const CLOSE_CODES = {
  /** The server is stopping or restarting: reconnect (to another instance) soon. */
  goingAway: 1001,
  /** Binary frames are not part of the protocol. */
  unsupportedData: 1003,
  tooLarge: 1009,
  /** Events cannot reach this instance now (Redis down): catch up, poll, reconnect later. */
  tryAgainLater: 1013,
  /** A frame that is not a known JSON message. */
  malformed: 4400,
  /**
   * No valid session: it expired while the socket was open (reconnect with the refreshed
   * cookie), or a page's handshake carried none (signed out, or not yet refreshed).
   */
  sessionExpired: 4401,
  /** The client did not read what was sent to it fast enough: reconnect and catch up. */
  tooSlow: 4408,
  /** The user already has the most sockets allowed on this instance. */
  tooManySockets: 4409,
  /** More frames than a client of this protocol sends. */
  tooManyFrames: 4429,
  /** The account was suspended: its sessions ended (decision 039). */
  accountSuspended: 4403,
} as const

/** The largest frame a client may send: its messages are pings, a few bytes. */
export const MAX_CLIENT_FRAME_BYTES = 4 * 1024
/** Frames one socket may send per window before it is closed (pings come every 25 s or so). */
const FRAMES_PER_WINDOW = 20
const FRAME_WINDOW_MS = 10_000
/** Unsent bytes a socket may have queued before its client is taken as not keeping up. */
const MAX_BUFFERED_BYTES = 1024 * 1024

/** The fan-out frame that closes its users' sockets (followed by the close code). */
const CLOSE_FRAME = '\u0000close:'

/** What a client may send: `{ "type": "ping" }`, answered by `{ "type": "pong" }`. */
const clientFrame = z.strictObject({ type: z.literal('ping') })

type SocketUser = { userId: string; expiresAt: number }

/** A refused handshake: answered over HTTP, or (`closeCode`) upgraded and closed at once. */
type Refusal = { error: ApiError; closeCode: number | undefined }

type Connection = {
  socket: WebSocket
  userId: string
  alive: boolean
  expiresAt: number
  frames: number
  windowStartedAt: number
  expiry: NodeJS.Timeout
}

export type RealtimeOptions = {
  redisUrl: string | undefined
  socketsPerUser: number
  heartbeatMs: number
  /** The site's origin (PUBLIC_BASE_URL's): pages of other origins may not open a socket. */
  siteOrigin: string
  /** The user of the request's session cookie, or of its `Authorization: Bearer` token. */
  authenticate(request: FastifyRequest): Promise<SocketUser | undefined>
  now: () => number
}

/**
 * Registers `/realtime` and decorates the app with `realtime` (the publish seam). Registered
 * before every other route: @fastify/websocket closes upgrade requests to routes without a
 * socket handler.
 */
export async function registerRealtime(
  app: FastifyInstance,
  options: RealtimeOptions,
): Promise<RealtimeService> {
  const sockets = new Map<string, Set<Connection>>()
  let open = 0
  let stopping = false
  const deliver = (userIds: readonly string[], frame: string) => {
    // A close travels the fan-out like an event, as a frame no JSON event can be.
    const close = frame.startsWith(CLOSE_FRAME) ? Number(frame.slice(CLOSE_FRAME.length)) : 0
    // Encoded once for all the sockets it goes to (many tabs, both members), not per socket;
    // and not at all when none of them is on this instance.
    let encoded: Buffer | undefined
    for (const userId of userIds) {
      const own = sockets.get(userId)
      if (!own) continue
      encoded ??= Buffer.from(frame)
      for (const connection of own) {
        if (close) connection.socket.close(close, 'disconnected')
        else send(connection, encoded)
      }
    }
  }
  const listener = {
    deliver,
    liveChanged(live: boolean) {
      if (live) return
      // Events published elsewhere no longer arrive: a socket left open would wait for them
      // in vain. Closed, its client catches up through the API and polls until Redis is back.
      for (const users of sockets.values()) {
        for (const connection of users) {
          connection.socket.close(CLOSE_CODES.tryAgainLater, 'realtime unavailable')
        }
      }
    },
  }
  const fanOut: FanOut = options.redisUrl
    ? redisFanOut(options.redisUrl, listener, app.log)
    : inProcessFanOut(listener)

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

  const heartbeat = setInterval(() => {
    const now = options.now()
    for (const users of sockets.values()) {
      for (const connection of users) {
        if (!connection.alive) {
          // No pong since the last ping: the peer is gone without closing (sleep, lost network).
          connection.socket.terminate()
        } else if (now >= connection.expiresAt) {
          // The timer below runs on real time; the server's clock may have been moved on.
          connection.socket.close(CLOSE_CODES.sessionExpired, 'session expired')
        } else {
          connection.alive = false
          connection.socket.ping()
        }
      }
    }
  }, options.heartbeatMs)
  heartbeat.unref()

  const service: RealtimeService = {
    publish(userIds, event) {
      if (userIds.length === 0) return
      let frame: string
      try {
        frame = JSON.stringify({ type: event.type, data: event.data })
      } catch (error) {
        app.log.error({ err: error, type: event.type }, 'realtime: event is not serializable')
        return
      }
      fanOut.publish(userIds, frame)
    },
    disconnect(userIds, code) {
      if (userIds.length > 0) fanOut.publish(userIds, `${CLOSE_FRAME}${code}`)
    },
    get live() {
      return fanOut.live
    },
    get connections() {
      return open
    },
    shutdown() {
      stopping = true
      for (const users of sockets.values()) {
        for (const connection of users) {
          connection.socket.close(CLOSE_CODES.goingAway, 'server stopping')
        }
      }
    },
  }

  await app.register(websocket, {
    options: { maxPayload: MAX_CLIENT_FRAME_BYTES, perMessageDeflate: false },
    // An unclean disconnect is the network's doing, not an error of the server.
    errorHandler: (_error, socket) => socket.terminate(),
    preClose: async () => {
      service.shutdown()
      clearInterval(heartbeat)
      await fanOut.close()
    },
  })

  const users = new WeakMap<FastifyRequest, SocketUser>()
  /** Refusals told to a page's script as a close code after the upgrade (see refusalOf). */
  const closeRefusals = new WeakMap<FastifyRequest, Refusal>()
  app.route({
    method: 'GET',
    url: '/realtime',
    schema: { hide: true },
    preValidation: async (request, reply) => {
      if (!request.ws) return
      const refusal = await refusalOf(request)
      if (!refusal) return
      if (refusal.closeCode === undefined) return refuse(reply, refusal.error)
      closeRefusals.set(request, refusal)
    },
    handler: async (_request, reply) =>
      refuse(reply, new ApiError('UPGRADE_REQUIRED', '/realtime は WebSocket で接続してください')),
    wsHandler: (socket, request) => {
      const refusal = closeRefusals.get(request)
      if (refusal?.closeCode !== undefined) {
        return socket.close(refusal.closeCode, refusal.error.code)
      }
      const user = users.get(request)
      if (!user) return socket.close(CLOSE_CODES.malformed)
      accept(socket, user)
    },
  })
  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/realtime',
    schema: { hide: true },
    handler: async (_request, reply) =>
      refuse(reply, new ApiError('METHOD_NOT_ALLOWED', '/realtime は GET だけを受け付けます')),
  })
  app.all('/realtime/*', { schema: { hide: true } }, async (_request, reply) =>
    refuse(reply, ApiError.notFound()),
  )

  /**
   * Why a handshake is refused, if it is. A browser shows a handshake refused over HTTP as a
   * console error and tells the page's script nothing of why; so a handshake from the site's
   * own pages (which can race a sign-out or a token refresh) is upgraded and closed with a code
   * its script acts on. Other clients get the refusal as HTTP with the API's error body.
   */
  async function refusalOf(request: FastifyRequest): Promise<Refusal | undefined> {
    // Browsers send Origin on every WebSocket handshake and attach cookies whatever page asks:
    // a socket opened with cookies must come from the site's own pages. A bearer token is never
    // attached by a browser on another site's behalf.
    const bearer =
      request.headers.authorization !== undefined && request.headers.cookie === undefined
    if (!bearer && !fromOwnPages(request, options.siteOrigin)) {
      const error = new ApiError(
        'CROSS_SITE_REQUEST',
        '他のサイトからの接続は受け付けられません。テックラボのページから接続してください。',
      )
      return { error, closeCode: undefined }
    }
    const page = !bearer && request.headers.origin !== undefined
    const refusal = (error: ApiError, closeCode: number): Refusal => ({
      error,
      closeCode: page ? closeCode : undefined,
    })
    if (stopping) {
      const error = new ApiError('SHUTTING_DOWN')
      return refusal(error, CLOSE_CODES.goingAway)
    }
    if (!fanOut.live) {
      const error = new ApiError('REALTIME_UNAVAILABLE')
      return refusal(error, CLOSE_CODES.tryAgainLater)
    }
    const user = await options.authenticate(request)
    if (!user) {
      const error = new ApiError('SIGN_IN_REQUIRED', 'ログインしてください')
      return refusal(error, CLOSE_CODES.sessionExpired)
    }
    users.set(request, user)
    return undefined
  }

  function accept(socket: WebSocket, user: SocketUser) {
    const own = sockets.get(user.userId) ?? new Set<Connection>()
    if (stopping) return socket.close(CLOSE_CODES.goingAway, 'server stopping')
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
    socket.on('message', (data, isBinary) => received(connection, data, isBinary))
    socket.on('close', () => {
      clearTimeout(connection.expiry)
      own.delete(connection)
      if (own.size === 0 && sockets.get(user.userId) === own) sockets.delete(user.userId)
      open -= 1
    })
    socket.send(JSON.stringify({ type: 'ready', data: { heartbeatMs: options.heartbeatMs } }))
  }

  function received(connection: Connection, data: RawData, isBinary: boolean) {
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

  app.decorate('realtime', service)
  return service
}

const PONG = JSON.stringify({ type: 'pong' })

function refuse(reply: FastifyReply, error: ApiError) {
  return reply.code(error.status).type('application/json').send(error.toJSON())
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The realtime publish seam (server/realtime): events for users' open sockets. */
    realtime: RealtimeService
  }
}
