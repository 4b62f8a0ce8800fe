import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { searchPublishedContent } from '#features/search/search.server.ts'
import { searchQuery } from '#features/search/search-query.ts'
import { ApiError } from './api-error.ts'

/** Full-text search over published content, as the /search page and the catalogue search. */
export function registerSearchRoutes(
  api: FastifyInstance,
  db: Kysely<DB>,
  actorOf: (request: FastifyRequest) => Promise<Actor | undefined>,
): void {
  api.get('/search', async (request) => {
    const query = searchQuery.safeParse(request.query)
    if (!query.success) throw ApiError.validation(query.error)
    return { items: await searchPublishedContent(db, query.data, await actorOf(request)) }
  })
}
