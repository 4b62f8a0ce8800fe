import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import {
  NOTIFICATIONS_COUNT,
  type NotificationsCountEvent,
} from '#features/social/notification-events.ts'
import {
  collectUnreadChanges,
  countUnreadNotifications,
} from '#features/social/notifications.server.ts'
import type { RealtimePublisher } from './realtime/protocol.ts'

/**
 * The live bell: notifications are written by features (a like, a comment, a follow)
 * inside their transactions, from /api routes and page actions alike. Each request runs with a
 * collector of the users whose unread count its writes may change; once the answer is sent, the
 * transaction has committed, and each of those users' open pages gets the count as it now is.
 * Counted then, not inside the transaction, so a rolled-back write announces nothing new.
 */
export function registerLiveBadge(
  app: FastifyInstance,
  db: Kysely<DB>,
  realtime: RealtimePublisher,
): void {
  const changed = new WeakMap<FastifyRequest, Set<string>>()
  // preHandler, not onRequest: the request's body is read by then, so the handler (and the
  // feature it calls) runs in this async context.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') return done()
    const userIds = new Set<string>()
    changed.set(request, userIds)
    collectUnreadChanges(userIds, done)
  })
  app.addHook('onResponse', async (request) => {
    const userIds = changed.get(request)
    if (!userIds || userIds.size === 0) return
    await Promise.all(
      [...userIds].map(async (userId) => {
        try {
          const data: NotificationsCountEvent = {
            unread: await countUnreadNotifications(db, userId),
          }
          realtime.publish([userId], { type: NOTIFICATIONS_COUNT, data })
        } catch (error) {
          request.log.warn({ err: error }, 'live badge: could not count unread notifications')
        }
      }),
    )
  })
}
