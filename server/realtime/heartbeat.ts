import type { Connections } from './connections.ts'
import { CLOSE_CODES } from './protocol.ts'

/**
 * Every `heartbeatMs`, pings each socket, ending those that did not answer the last ping and
 * those whose session has expired by the server's clock. The caller clears the interval.
 */
export function startHeartbeat(
  connections: Connections,
  heartbeatMs: number,
  now: () => number,
): NodeJS.Timeout {
  const heartbeat = setInterval(() => {
    const at = now()
    for (const users of connections.sockets.values()) {
      for (const connection of users) {
        if (!connection.alive) {
          // No pong since the last ping: the peer is gone without closing (sleep, lost network).
          connection.socket.terminate()
        } else if (at >= connection.expiresAt) {
          // The expiry timer runs on real time; the server's clock may have been moved on.
          connection.socket.close(CLOSE_CODES.sessionExpired, 'session expired')
        } else {
          connection.alive = false
          connection.socket.ping()
        }
      }
    }
  }, heartbeatMs)
  heartbeat.unref()
  return heartbeat
}
