import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '#server/api/api-error.ts'
import { fromOwnPages } from '#server/api/cross-site.ts'
import type { Connections, SocketUser } from './connections.ts'
import type { FanOut } from './fan-out.ts'
import { CLOSE_CODES } from './protocol.ts'

/** A refused handshake: answered over HTTP, or (`closeCode`) upgraded and closed at once. */
type Refusal = { error: ApiError; closeCode: number | undefined }

export type HandshakeOptions = {
  /** The site's origin (PUBLIC_BASE_URL's): pages of other origins may not open a socket. */
  siteOrigin: string
  /** The user of the request's session cookie, or of its `Authorization: Bearer` token. */
  authenticate(request: FastifyRequest): Promise<SocketUser | undefined>
}

/**
 * The `/realtime` routes: the WebSocket handshake, checked before the upgrade and handed to
 * `connections` once it passes, and the HTTP answers to everything else under `/realtime`.
 */
export function registerRealtimeRoutes(
  app: FastifyInstance,
  connections: Connections,
  fanOut: FanOut,
  options: HandshakeOptions,
): void {
  const users = new WeakMap<FastifyRequest, SocketUser>()
  /** Refusals told to a page's script as a close code after the upgrade (see refusalOf). */
  const closeRefusals = new WeakMap<FastifyRequest, Refusal>()
  app.route({
    method: 'GET',
    url: '/realtime',
    schema: { hide: true },
    preValidation: async (request, reply) => {
      if (!request.ws) return
      const refusal = await refusalOf(request, connections, fanOut, options, users)
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
      connections.accept(socket, user)
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
}

/**
 * Why a handshake is refused, if it is. A browser shows a handshake refused over HTTP as a
 * console error and tells the page's script nothing of why; so a handshake from the site's
 * own pages (which can race a sign-out or a token refresh) is upgraded and closed with a code
 * its script acts on. Other clients get the refusal as HTTP with the API's error body.
 */
async function refusalOf(
  request: FastifyRequest,
  connections: Connections,
  fanOut: FanOut,
  options: HandshakeOptions,
  users: WeakMap<FastifyRequest, SocketUser>,
): Promise<Refusal | undefined> {
  // Browsers send Origin on every WebSocket handshake and attach cookies whatever page asks:
  // a socket opened with cookies must come from the site's own pages. A bearer token is never
  // attached by a browser on another site's behalf.
  const bearer = request.headers.authorization !== undefined && request.headers.cookie === undefined
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
  if (connections.stopping) {
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

function refuse(reply: FastifyReply, error: ApiError) {
  return reply.code(error.status).type('application/json').send(error.toJSON())
}
