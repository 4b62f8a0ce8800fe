import type { Kysely } from 'kysely'
import type { ContentKind, DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import { CONTENT_KINDS, contentPath } from '#features/content-kinds.ts'
import type { PublishedItem } from '#features/follows/follow-views.ts'
import { afterCursor } from '#features/pagination.server.ts'
import { type Cursor, type Page, type PageQuery, pageFrom } from '#features/pagination.ts'

export type { PublishedItem }

const KINDS = Object.keys(CONTENT_KINDS) as ContentKind[]

/** How many items of every kind `userId` has published. */
export async function publishedCount(db: Kysely<DB>, userId: string): Promise<number> {
  const counts = await Promise.all(
    KINDS.map((kind) =>
      db
        .selectFrom(CONTENT_KINDS[kind].table)
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('owner_id', '=', userId)
        .where('status', '=', 'published')
        .where('hidden_at', 'is', null)
        .executeTakeFirstOrThrow(),
    ),
  )
  return counts.reduce((sum, row) => sum + Number(row.n), 0)
}

/**
 * Published items of one kind, newest first (the `{table}_list_idx` order), after `cursor`
 * when given, and only those of people `followerId` follows when given.
 */
export async function listPublishedOfKind(
  db: Kysely<DB>,
  kind: ContentKind,
  options: { limit: number; cursor?: Cursor; followerId?: string },
): Promise<PublishedItem[]> {
  const { table } = CONTENT_KINDS[kind]
  let query = db
    .selectFrom(table)
    .innerJoin('users', 'users.id', `${table}.owner_id`)
    .select([
      `${table}.id as id`,
      `${table}.title as title`,
      `${table}.published_at as published_at`,
      'users.username',
      'users.display_name',
    ])
    .where(`${table}.status`, '=', 'published')
    .where(`${table}.hidden_at`, 'is', null)
  if (options.followerId !== undefined) {
    const followerId = options.followerId
    query = query.where(`${table}.owner_id`, 'in', (eb) =>
      eb.selectFrom('follows').select('followee_id').where('follower_id', '=', followerId),
    )
  }
  if (options.cursor) {
    query = query.where(afterCursor(options.cursor, `${table}.published_at`, `${table}.id`))
  }
  const rows = await query
    .orderBy(`${table}.published_at`, 'desc')
    .orderBy(`${table}.id`, 'desc')
    .limit(options.limit)
    .execute()
  return rows.map((row) => ({
    id: row.id,
    kind,
    title: row.title,
    path: contentPath(kind, row.username, row.id),
    publishedAt: Number(row.published_at ?? 0),
    author: { username: row.username, displayName: row.display_name },
  }))
}

/**
 * What the people `actor` follows have published, newest first. Each kind gives its own next
 * `limit + 1` items after the cursor; the newest of those, merged, are the page, which is
 * exact because no item of the page can be missing from its own kind's first items.
 */
export async function listFeed(
  db: Kysely<DB>,
  actor: Actor | undefined,
  { cursor, limit }: PageQuery,
): Promise<Page<PublishedItem>> {
  if (!actor) throw ContentError.signInRequired()
  const perKind = await Promise.all(
    KINDS.map((kind) =>
      listPublishedOfKind(db, kind, { limit: limit + 1, cursor, followerId: actor.userId }),
    ),
  )
  const merged = perKind
    .flat()
    .sort((a, b) => b.publishedAt - a.publishedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, limit + 1)
  return pageFrom(merged, limit, (item) => ({ at: item.publishedAt, id: item.id }))
}
