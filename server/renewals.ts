import type { FastifyInstance } from 'fastify'
import { type RenewalReport, runDueRenewals } from '#features/plans/renewal.server.ts'
import type { Billing } from '#features/plans/subscription-records.server.ts'
import type { QueuedMailDelivery } from './mail/mailer.ts'

/**
 * The renewal scheduler: every `intervalMs` it renews, retries or ends the
 * subscriptions whose period has passed, then starts delivering the receipts and notices it
 * wrote. Several instances may run it at once (runDueRenewals claims rows with SKIP LOCKED and
 * charges with a key per period). `app.renewals.run()` runs a pass now (tests move the clock
 * and run it instead of waiting).
 */
export function scheduleRenewals(
  app: FastifyInstance,
  billing: Billing,
  mail: QueuedMailDelivery,
  intervalMs: number,
): void {
  let running: Promise<RenewalReport> | undefined
  const run = async (): Promise<RenewalReport> => {
    // One pass at a time in this process; a tick that finds one running waits for it.
    running ??= runDueRenewals(billing).finally(() => {
      running = undefined
    })
    const report = await running
    if (report.mailIds.length > 0) await mail.deliverQueued(report.mailIds)
    return report
  }
  const timer = setInterval(() => {
    run().catch((error: unknown) => app.log.error({ err: error }, 'subscription renewals failed'))
  }, intervalMs)
  timer.unref()
  app.addHook('onClose', async () => {
    clearInterval(timer)
    await running?.catch(() => undefined)
  })
  app.decorate('renewals', { run })
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The renewal scheduler's pass, on demand. */
    renewals: { run(): Promise<RenewalReport> }
  }
}
