import { z } from 'zod'
import { messageView } from './message-views.ts'

/**
 * The realtime events of direct messages (the seam in docs/decisions/035): product
 * facts the server publishes to a room's members after the change is committed, and the
 * browser parses before trusting. Each one is also recoverable from /api (a room's changes after
 * a version), so a client that missed it loses nothing.
 */

const roomEvent = z.object({ roomId: z.string() })

export const messageEvents = {
  'message.created': roomEvent.extend({ message: messageView }),
  'message.updated': roomEvent.extend({ message: messageView }),
  'message.deleted': roomEvent.extend({ message: messageView }),
  /** A member read up to `seq`. */
  'room.read': roomEvent.extend({ username: z.string(), seq: z.number() }),
  /** A member is typing (sent at most every few seconds while they type). */
  typing: roomEvent.extend({ username: z.string() }),
} as const

export type MessageEventType = keyof typeof messageEvents
export type MessageEventData<T extends MessageEventType> = z.output<(typeof messageEvents)[T]>

/** One event as `publish(userIds, event)` takes it. */
export type MessageEvent = {
  [T in MessageEventType]: { type: T; data: MessageEventData<T> }
}[MessageEventType]

/** How a feature hands events to the realtime service (server/realtime's `publish`). */
export type Publish = (userIds: string[], event: MessageEvent) => void

/** The browser's check of an event's data; undefined for data that does not fit. */
export function parseMessageEvent<T extends MessageEventType>(
  type: T,
  data: unknown,
): MessageEventData<T> | undefined {
  const parsed = messageEvents[type].safeParse(data)
  return parsed.success ? (parsed.data as MessageEventData<T>) : undefined
}

/** While typing, the browser says so at most this often; the other side shows it this long. */
export const TYPING_THROTTLE_MS = 3_000
export const TYPING_SHOWN_MS = 5_000
