import websocket from '@fastify/websocket'
import type { FastifyInstance } from 'fastify'
import { openConnections } from './connections.ts'
import { connectFanOut } from './delivery.ts'
import { type HandshakeOptions, registerRealtimeRoutes } from './handshake.ts'
import { startHeartbeat } from './heartbeat.ts'
import {
  CLOSE_CODES,
  CLOSE_FRAME,
  MAX_CLIENT_FRAME_BYTES,
  type RealtimeService,
} from './protocol.ts'

/**
 * The `/realtime` WebSocket endpoint and its publish seam (docs/decisions/036). Product code
 * publishes facts for users (`publish(userIds, event)`); every open socket of those users, on
 * any instance, receives the event as one JSON text frame `{ "type", "data" }`. Events are
 * hints: what they announce is stored first and can always be read again through the API, so a
 * client that missed some (a dropped connection, Redis down) catches up from what it last saw.
 * This module knows nothing of products: it never imports features.
 */

export type RealtimeOptions = HandshakeOptions & {
  redisUrl: string | undefined
  socketsPerUser: number
  heartbeatMs: number
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
  const connections = openConnections(options)
  const fanOut = connectFanOut(connections, options.redisUrl, app.log)
  const heartbeat = startHeartbeat(connections, options.heartbeatMs, options.now)

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
      return connections.open
    },
    shutdown() {
      connections.stopping = true
      connections.closeAll(CLOSE_CODES.goingAway, 'server stopping')
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

  registerRealtimeRoutes(app, connections, fanOut, options)

  app.decorate('realtime', service)
  return service
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The realtime publish seam (server/realtime): events for users' open sockets. */
    realtime: RealtimeService
  }
}
