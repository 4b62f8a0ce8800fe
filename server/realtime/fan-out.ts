import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'

/**
 * How an event published on one instance reaches the sockets of its users on every instance
 * (docs/decisions/036). In this process by default; through one Redis pub/sub channel with
 * REDIS_URL, where each instance hears every event and delivers it to the sockets it holds.
 * The publishing instance delivers to its own sockets at once and skips its echo from Redis.
 */
export type FanOut = {
  /** Hands a serialized frame for these users to every instance (this one included). */
  publish(userIds: readonly string[], frame: string): void
  /**
   * Whether events reach every instance now. While they cannot (Redis unreachable), sockets are
   * closed and refused, so clients catch up through the API and poll until it is back.
   */
  readonly live: boolean
  close(): Promise<void>
}

export type FanOutListener = {
  /** A frame for these users, to be sent to the sockets of theirs this instance holds. */
  deliver(userIds: readonly string[], frame: string): void
  /** Events started or stopped reaching this instance from the others. */
  liveChanged(live: boolean): void
}

export function inProcessFanOut(listener: FanOutListener): FanOut {
  return {
    publish: (userIds, frame) => listener.deliver(userIds, frame),
    live: true,
    close: async () => {},
  }
}

/** The channel every instance of one site shares. */
export const REDIS_CHANNEL = 'techlab:realtime'

type Envelope = { origin: string; userIds: string[]; frame: string }

export function redisFanOut(
  url: string,
  listener: FanOutListener,
  log: { warn(details: object, message: string): void },
): FanOut {
  const origin = randomUUID()
  // Every instance hears its own events back from the channel; an envelope starts with its
  // origin (see publish), so an echo is dropped without parsing it.
  const echo = `{"origin":${JSON.stringify(origin)},`
  // Never queued while disconnected: an event held back would arrive late and out of order,
  // after clients had already caught up through the API.
  const publisher = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 })
  const subscriber = new Redis(url, {
    autoResubscribe: false,
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(100 * 2 ** times, 2_000),
  })
  let live = false
  let closed = false
  let warned = false
  const setLive = (value: boolean) => {
    if (live === value || closed) return
    live = value
    listener.liveChanged(value)
  }
  const quiet = () => {}
  publisher.on('error', quiet)
  subscriber.on('error', (error) => {
    if (!warned)
      log.warn({ err: error }, 'realtime: Redis unreachable, clients fall back to polling')
    warned = true
  })
  subscriber.on('ready', () => {
    subscriber.subscribe(REDIS_CHANNEL).then(
      () => {
        warned = false
        setLive(true)
      },
      () => subscriber.disconnect(true),
    )
  })
  subscriber.on('close', () => setLive(false))
  subscriber.on('message', (_channel: string, message: string) => {
    if (message.startsWith(echo)) return
    let envelope: Envelope
    try {
      envelope = JSON.parse(message) as Envelope
    } catch {
      return
    }
    if (envelope.origin === origin || !Array.isArray(envelope.userIds)) return
    if (typeof envelope.frame !== 'string') return
    listener.deliver(envelope.userIds, envelope.frame)
  })

  return {
    publish(userIds, frame) {
      listener.deliver(userIds, frame)
      // `origin` first: the echo check above reads it as the envelope's prefix.
      const envelope: Envelope = { origin, userIds: [...userIds], frame }
      // A failed publish loses the event for other instances' sockets only while Redis is
      // down, and then those sockets are closed and their clients catch up.
      publisher.publish(REDIS_CHANNEL, JSON.stringify(envelope)).catch(quiet)
    },
    get live() {
      return live
    },
    async close() {
      closed = true
      publisher.disconnect()
      subscriber.disconnect()
    },
  }
}
