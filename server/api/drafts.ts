import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { listMyDrafts } from '#features/drafts/my-drafts.server.ts'

/** GET /api/drafts: the signed-in user's unpublished items of every kind, newest first. */
export function registerDraftRoutes(
  api: FastifyInstance,
  db: Kysely<DB>,
  actorOf: (request: FastifyRequest) => Promise<Actor | undefined>,
): void {
  api.get('/drafts', async (request) => ({ items: await listMyDrafts(db, await actorOf(request)) }))
}
