import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { runMessageDigest } from '#features/messages/digest.server.ts'
import type { QueuedMailDelivery } from './mail/mailer.ts'

/**
 * Runs the e-mail digest of unread direct messages every few minutes on every instance: each
 * run claims users one by one in the database (features/messages/digest.server.ts), so
 * instances share the work and never mail a user twice in a period.
 */
export function scheduleMessageDigest(
  app: FastifyInstance,
  options: {
    db: Kysely<DB>
    mail: QueuedMailDelivery
    siteUrl: string
    siteTitle: string
    now: () => number
    intervalMs?: number
  },
): void {
  let running = false
  const run = async () => {
    if (running) return
    running = true
    try {
      const ids = await runMessageDigest(options.db, {
        now: options.now(),
        siteUrl: options.siteUrl,
        siteTitle: options.siteTitle,
      })
      await options.mail.deliverQueued(ids)
    } catch (error) {
      app.log.warn({ err: error }, 'message digest run failed')
    } finally {
      running = false
    }
  }
  const timer = setInterval(() => void run(), options.intervalMs ?? 5 * 60 * 1000)
  timer.unref()
  app.addHook('onClose', async () => clearInterval(timer))
}
