import type { Kysely } from 'kysely'
import type { DB } from '../../db/schema.ts'

/** A published study or lab story, as the home page lists it. */
export type WritingCard = {
  id: string
  title: string
  path: string
  publishedAt: number
  author: { username: string; displayName: string }
}

const PATHS = { studies: 'studies', lab_stories: 'labs_stories' } as const

/** The newest published studies or lab stories (uses the `{table}_list_idx` index). */
export async function listNewestWriting(
  db: Kysely<DB>,
  table: keyof typeof PATHS,
  limit = 4,
): Promise<WritingCard[]> {
  const rows = await db
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
    .orderBy(`${table}.published_at`, 'desc')
    .orderBy(`${table}.id`, 'desc')
    .limit(limit)
    .execute()
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    path: `/${row.username}/${PATHS[table]}/${row.id}`,
    publishedAt: row.published_at ?? 0,
    author: { username: row.username, displayName: row.display_name },
  }))
}
