import { z } from 'zod'

/**
 * The realtime event that keeps the header's bell current (server/realtime-badge.ts publishes
 * it, app/components/site-header.tsx listens): the recipient's unread count after a change.
 * Browser-safe: the page parses what the socket sends with it.
 */
export const NOTIFICATIONS_COUNT = 'notifications.count'

export const notificationsCountEvent = z.object({ unread: z.number().int().min(0) })
export type NotificationsCountEvent = z.infer<typeof notificationsCountEvent>
