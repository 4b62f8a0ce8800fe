import type { FastifyBaseLogger } from 'fastify'
import type { Connections } from './connections.ts'
import { type FanOut, inProcessFanOut, redisFanOut } from './fan-out.ts'
import { CLOSE_CODES, CLOSE_FRAME } from './protocol.ts'

/**
 * The fan-out that carries frames between instances (Redis, or this process alone), delivering
 * what arrives to this instance's sockets of the users it names.
 */
export function connectFanOut(
  connections: Connections,
  redisUrl: string | undefined,
  log: FastifyBaseLogger,
): FanOut {
  const { sockets } = connections
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
        else connections.send(connection, encoded)
      }
    }
  }
  const listener = {
    deliver,
    liveChanged(live: boolean) {
      if (live) return
      // Events published elsewhere no longer arrive: a socket left open would wait for them
      // in vain. Closed, its client catches up through the API and polls until Redis is back.
      connections.closeAll(CLOSE_CODES.tryAgainLater, 'realtime unavailable')
    },
  }
  return redisUrl ? redisFanOut(redisUrl, listener, log) : inProcessFanOut(listener)
}
