import type { Kysely } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { Actor } from '../actor.ts'
import { ContentError } from '../content-error.ts'
import { type Page, type PageQuery, pageFrom } from '../pagination.ts'

/** The published kinds a profile counts and the home feed lists, with their URL segment. */
export const PUBLISHED_KINDS = {
  courses: { kind: 'course', segment: 'courses' },
  studies: { kind: 'study', segment: 'studies' },
  labs: { kind: 'lab', segment: 'labs' },
  lab_stories: { kind: 'lab_story', segment: 'labs_stories' },
} as const

type PublishedTable = keyof typeof PUBLISHED_KINDS

/** A followed person's newly published item on the signed-in home page. */
export type FeedItem = {
  id: string
  kind: (typeof PUBLISHED_KINDS)[PublishedTable]['kind']
  title: string
  path: string
  publishedAt: number
  author: { username: string; displayName: string }
}

/** How many items of every kind `userId` has published. */
export async function publishedCount(db: Kysely<DB>, userId: string): Promise<number> {
  const counts = await Promise.all(
    (Object.keys(PUBLISHED_KINDS) as PublishedTable[]).map((table) =>
      db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('owner_id', '=', userId)
        .where('status', '=', 'published')
        .executeTakeFirstOrThrow(),
    ),
  )
  return counts.reduce((sum, row) => sum + Number(row.n), 0)
}

/**
 * What the people `actor` follows have published, newest first. Each kind's table gives its
 * own next `limit + 1` rows after the cursor; the newest of those, merged, are the page, which
 * is exact because no row of the page can be missing from its own table's first rows.
 */
export async function listFeed(
  db: Kysely<DB>,
  actor: Actor | undefined,
  { cursor, limit }: PageQuery,
): Promise<Page<FeedItem>> {
  if (!actor) throw ContentError.signInRequired()
  const perKind = await Promise.all(
    (Object.keys(PUBLISHED_KINDS) as PublishedTable[]).map(async (table) => {
      let query = db
        .selectFrom(table)
        .innerJoin('users', 'users.id', `${table}.owner_id`)
        .innerJoin('follows', 'follows.followee_id', `${table}.owner_id`)
        .select([
          `${table}.id as id`,
          `${table}.title as title`,
          `${table}.published_at as published_at`,
          'users.username',
          'users.display_name',
        ])
        .where('follows.follower_id', '=', actor.userId)
        .where(`${table}.status`, '=', 'published')
      if (cursor) {
        query = query.where(({ eb, or, and }) =>
          or([
            eb(`${table}.published_at`, '<', cursor.at),
            and([eb(`${table}.published_at`, '=', cursor.at), eb(`${table}.id`, '<', cursor.id)]),
          ]),
        )
      }
      const rows = await query
        .orderBy(`${table}.published_at`, 'desc')
        .orderBy(`${table}.id`, 'desc')
        .limit(limit + 1)
        .execute()
      const { kind, segment } = PUBLISHED_KINDS[table]
      return rows.map(
        (row): FeedItem => ({
          id: row.id,
          kind,
          title: row.title,
          path: `/${row.username}/${segment}/${row.id}`,
          publishedAt: Number(row.published_at ?? 0),
          author: { username: row.username, displayName: row.display_name },
        }),
      )
    }),
  )
  const merged = perKind
    .flat()
    .sort((a, b) => b.publishedAt - a.publishedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, limit + 1)
  return pageFrom(merged, limit, (item) => ({ at: item.publishedAt, id: item.id }))
}
