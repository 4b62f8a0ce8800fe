import type { z } from 'zod'
import { messageEvents } from '#features/messages/events.ts'
import {
  NOTIFICATIONS_COUNT,
  notificationsCountEvent,
} from '#features/social/notification-events.ts'

/**
 * Every event type pages listen for, with the schema its data is parsed with before any
 * listener sees it (a frame that does not match is dropped). Product features define their
 * events in browser-safe modules and list them here. Loaded with the connection, not before.
 */
export const EVENT_SCHEMAS = {
  [NOTIFICATIONS_COUNT]: notificationsCountEvent,
  ...messageEvents,
} satisfies Record<string, z.ZodType>

export type RealtimeEvents = {
  [Type in keyof typeof EVENT_SCHEMAS]: z.infer<(typeof EVENT_SCHEMAS)[Type]>
}

export function parseEvent(type: string, data: unknown): { ok: boolean; data?: unknown } {
  const schema = (EVENT_SCHEMAS as Record<string, z.ZodType | undefined>)[type]
  if (!schema) return { ok: false }
  const parsed = schema.safeParse(data)
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false }
}
