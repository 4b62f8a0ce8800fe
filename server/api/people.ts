import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
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
export function registerPeopleRoutes(api: FastifyInstance, db: Kysely<DB>): void {
  serve(api, routes.profile, async ({ params }) => readProfileHeader(db, params.username))
  serve(api, routes.followState, async ({ params, actor }) =>
    followState(db, actor, params.username),
  )
  serve(api, routes.follow, async ({ params, actor }) => follow(db, actor, params.username))
  serve(api, routes.unfollow, async ({ params, actor }) => unfollow(db, actor, params.username))
  serve(api, routes.blockState, async ({ params, actor }) =>
    readBlockState(db, actor, params.username),
  )
  serve(api, routes.block, async ({ params, actor }) => blockUser(db, actor, params.username))
  serve(api, routes.unblock, async ({ params, actor }) => unblockUser(db, actor, params.username))
  serve(api, routes.followers, async ({ params, query }) =>
    listFollows(db, params.username, 'followers', query),
  )
  serve(api, routes.following, async ({ params, query }) =>
    listFollows(db, params.username, 'following', query),
  )
  serve(api, routes.feed, async ({ query, actor }) => listFeed(db, actor, query))
  serve(api, routes.histories, async ({ query, actor }) => listHistory(db, actor, query))
  serve(api, routes.historySummary, async ({ actor }) => readHistorySummary(db, actor))
  serve(api, routes.ownProfile, async ({ actor }) => readOwnProfile(db, actor))
  serve(api, routes.updateProfile, async ({ sent, actor }) =>
    updateOwnProfile(db, actor, sent.body),
  )
  serve(api, routes.drafts, async ({ actor }) => ({
    items: await listMyDrafts(db, actor),
  }))
  serve(api, routes.search, async ({ query, actor }) => ({
    items: await searchPublishedContent(db, query, actor),
  }))
}
