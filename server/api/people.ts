import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { peopleRoutes as routes } from '#features/api/people.ts'
import { listMyDrafts } from '#features/drafts/my-drafts.server.ts'
import { listFeed } from '#features/follows/feed.server.ts'
import { follow, followState, listFollows, unfollow } from '#features/follows/follows.server.ts'
import { listHistory, readHistorySummary } from '#features/history/histories.server.ts'
import { searchPublishedContent } from '#features/search/search.server.ts'
import { blockUser, readBlockState, unblockUser } from '#features/users/blocks.server.ts'
import {
  readOwnProfile,
  readProfileHeader,
  updateOwnProfile,
} from '#features/users/profiles.server.ts'
import { serve } from './serve.ts'

/** Profiles, follows, the home feed, /histories, drafts and search: the pages' feature functions. */
export function registerPeopleRoutes(
  api: FastifyInstance,
  db: Kysely<DB>,
  actorOf: (request: FastifyRequest) => Promise<Actor | undefined>,
): void {
  serve(api, routes.profile, async ({ params }) => readProfileHeader(db, params.username))
  serve(api, routes.followState, async ({ params }, request) =>
    followState(db, await actorOf(request), params.username),
  )
  serve(api, routes.follow, async ({ params }, request) =>
    follow(db, await actorOf(request), params.username),
  )
  serve(api, routes.unfollow, async ({ params }, request) =>
    unfollow(db, await actorOf(request), params.username),
  )
  serve(api, routes.blockState, async ({ params }, request) =>
    readBlockState(db, await actorOf(request), params.username),
  )
  serve(api, routes.block, async ({ params }, request) =>
    blockUser(db, await actorOf(request), params.username),
  )
  serve(api, routes.unblock, async ({ params }, request) =>
    unblockUser(db, await actorOf(request), params.username),
  )
  serve(api, routes.followers, async ({ params, query }) =>
    listFollows(db, params.username, 'followers', query),
  )
  serve(api, routes.following, async ({ params, query }) =>
    listFollows(db, params.username, 'following', query),
  )
  serve(api, routes.feed, async ({ query }, request) => listFeed(db, await actorOf(request), query))
  serve(api, routes.histories, async ({ query }, request) =>
    listHistory(db, await actorOf(request), query),
  )
  serve(api, routes.historySummary, async (_input, request) =>
    readHistorySummary(db, await actorOf(request)),
  )
  serve(api, routes.ownProfile, async (_input, request) =>
    readOwnProfile(db, await actorOf(request)),
  )
  serve(api, routes.updateProfile, async ({ sent }, request) =>
    updateOwnProfile(db, await actorOf(request), sent.body),
  )
  serve(api, routes.drafts, async (_input, request) => ({
    items: await listMyDrafts(db, await actorOf(request)),
  }))
  serve(api, routes.search, async ({ query }, request) => ({
    items: await searchPublishedContent(db, query, await actorOf(request)),
  }))
}
