import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { moderationRoutes as routes } from '#features/api/moderation.ts'
import type { Publish } from '#features/messages/events.ts'
import {
  fileReport,
  listReportQueue,
  type ModerationEffects,
  moderate,
  moderatorOf,
  type ReportLimits,
  readModerationItem,
} from '#features/moderation/moderation.server.ts'
import { serve } from './serve.ts'

export type ModerationServices = {
  limits: ReportLimits
  now: () => number
  publish?: Publish | undefined
  disconnect?: ModerationEffects['disconnect']
}

/** Reports and the moderation queue over /api (docs/decisions/039). */
export function registerModerationRoutes(
  api: FastifyInstance,
  db: Kysely<DB>,
  services: ModerationServices,
): void {
  serve(api, routes.report, async ({ sent, actor }, request) =>
    fileReport(db, actor, sent.body, {
      now: services.now(),
      limits: services.limits,
      warn: (details, message) => request.log.warn(details, message),
    }),
  )
  serve(api, routes.queue, async ({ query, actor }) => ({
    items: await listReportQueue(db, await moderatorOf(db, actor), query.status),
  }))
  serve(api, routes.item, async ({ params, actor }) =>
    readModerationItem(db, await moderatorOf(db, actor), params.kind, params.id),
  )
  serve(api, routes.act, async ({ params, sent, actor }) => {
    await moderate(db, await moderatorOf(db, actor), params, sent.body, {
      now: services.now(),
      publish: services.publish,
      disconnect: services.disconnect,
    })
  })
}
