import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { DB } from '../../db/schema.ts'
import { cursorParameter, type Page, pageFrom, pageSizeParameter } from '../pagination.ts'
import { tagsOfItems } from '../tags/item-tags.server.ts'

/** A published study as lists show it. */
export type StudyCard = {
  id: string
  title: string
  summary: string
  tags: string[]
  publishedAt: number
  author: { username: string; displayName: string }
}

export const studyListQuery = z.object({
  cursor: cursorParameter.optional(),
  limit: pageSizeParameter,
})
export type StudyListQuery = z.infer<typeof studyListQuery>

/** Published studies, newest first, a page at a time; only one author's when `username` is given. */
export async function listPublishedStudies(
  db: Kysely<DB>,
  { cursor, limit }: StudyListQuery,
  username?: string,
): Promise<Page<StudyCard>> {
  let query = db
    .selectFrom('studies')
    .innerJoin('users', 'users.id', 'studies.owner_id')
    .select([
      'studies.id',
      'studies.title',
      'studies.summary',
      'studies.published_at',
      'users.username',
      'users.display_name',
    ])
    .where('studies.status', '=', 'published')
  if (username !== undefined) query = query.where('users.username', '=', username.toLowerCase())
  if (cursor) {
    query = query.where(({ eb, or, and }) =>
      or([
        eb('studies.published_at', '<', cursor.at),
        and([eb('studies.published_at', '=', cursor.at), eb('studies.id', '<', cursor.id)]),
      ]),
    )
  }
  const rows = await query
    .orderBy('studies.published_at', 'desc')
    .orderBy('studies.id', 'desc')
    .limit(limit + 1)
    .execute()
  const tags = await tagsOfItems(
    db,
    'study_tags',
    rows.map((row) => row.id),
  )
  const cards = rows.map(
    (row): StudyCard => ({
      id: row.id,
      title: row.title,
      summary: row.summary,
      tags: tags.get(row.id) ?? [],
      publishedAt: row.published_at ?? 0,
      author: { username: row.username, displayName: row.display_name },
    }),
  )
  return pageFrom(cards, limit, (card) => ({ at: card.publishedAt, id: card.id }))
}
