import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { listFeed } from '#features/follows/feed.server.ts'
import { follow, followState, listFollows, unfollow } from '#features/follows/follows.server.ts'
import { listHistory, readHistorySummary } from '#features/history/histories.server.ts'
import { pageQuery } from '#features/pagination.ts'
import {
  readOwnProfile,
  readProfileHeader,
  updateOwnProfile,
} from '#features/users/profiles.server.ts'
import { ApiError } from './api-error.ts'
import { pathId, pathParams } from './request-params.ts'

const userParams = z.object({ username: pathId })

function listQuery(request: FastifyRequest) {
  const query = pageQuery.safeParse(request.query)
  if (!query.success) throw ApiError.validation(query.error)
  return query.data
}

/** Profiles, follows, the home feed and /histories: the same feature functions as the pages. */
export function registerPeopleRoutes(
  api: FastifyInstance,
  db: Kysely<DB>,
  actorOf: (request: FastifyRequest) => Promise<Actor | undefined>,
): void {
  api.get('/users/:username', async (request) => {
    return readProfileHeader(db, pathParams(userParams, request).username)
  })
  api.get('/users/:username/follow', async (request) => {
    return followState(db, await actorOf(request), pathParams(userParams, request).username)
  })
  api.post('/users/:username/follow', async (request) => {
    return follow(db, await actorOf(request), pathParams(userParams, request).username)
  })
  api.delete('/users/:username/follow', async (request) => {
    return unfollow(db, await actorOf(request), pathParams(userParams, request).username)
  })
  for (const direction of ['followers', 'following'] as const) {
    api.get(`/users/:username/${direction}`, async (request) => {
      const { username } = pathParams(userParams, request)
      return listFollows(db, username, direction, listQuery(request))
    })
  }
  api.get('/feed', async (request) => listFeed(db, await actorOf(request), listQuery(request)))
  api.get('/histories', async (request) =>
    listHistory(db, await actorOf(request), listQuery(request)),
  )
  api.get('/histories/summary', async (request) => readHistorySummary(db, await actorOf(request)))
  api.get('/profile', async (request) => readOwnProfile(db, await actorOf(request)))
  api.put('/profile', async (request) => updateOwnProfile(db, await actorOf(request), request.body))
}
