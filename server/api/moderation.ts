import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { moderationRoutes as routes } from '#features/api/moderation.ts'
import { ContentError } from '#features/content-error.ts'
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
  actorOf: (request: FastifyRequest) => Promise<Actor | undefined>,
  services: ModerationServices,
): void {
  const moderator = async (request: FastifyRequest) => {
    const actor = await actorOf(request)
    if (!actor) throw ContentError.signInRequired()
    return moderatorOf(db, actor)
  }
  serve(api, routes.report, async ({ sent }, request) =>
    fileReport(db, await actorOf(request), sent.body, {
      now: services.now(),
      limits: services.limits,
      warn: (details, message) => request.log.warn(details, message),
    }),
  )
  serve(api, routes.queue, async ({ query }, request) => ({
    items: await listReportQueue(db, await moderator(request), query.status),
  }))
  serve(api, routes.item, async ({ params }, request) =>
    readModerationItem(db, await moderator(request), params.kind, params.id),
  )
  serve(api, routes.act, async ({ params, sent }, request) => {
    await moderate(db, await moderator(request), params, sent.body, {
      now: services.now(),
      publish: services.publish,
      disconnect: services.disconnect,
    })
  })
}
