import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { LabCard, LabStoryCard } from '#features/labs/lab-views.ts'
import { plainExcerpt } from '#features/markdown/excerpt.ts'
import type { Cursor, Page } from '#features/pagination.ts'
import { listPublishedItems } from '#features/published-lists.server.ts'

export type { LabCard, LabStoryCard }

type ListPage = { cursor?: Cursor | undefined; limit: number }

/** Published labs, newest first, a page at a time; only one author's when `username` is given. */
export async function listPublishedLabs(
  db: Kysely<DB>,
  page: ListPage,
  username?: string,
): Promise<Page<LabCard>> {
  const { items, nextCursor } = await listPublishedItems(db, 'labs', 'lab_tags', page, {
    username,
  })
  const firstScreenshots =
    items.length === 0
      ? []
      : await db
          .selectFrom('lab_screenshots')
          .select(['lab_id', 'object_key'])
          .where(
            'lab_id',
            'in',
            items.map((item) => item.id),
          )
          .where('position', '=', 0)
          .execute()
  const imageOf = new Map(firstScreenshots.map((row) => [row.lab_id, row.object_key]))
  return {
    nextCursor,
    items: items.map(
      ({ row, ...item }): LabCard => ({
        ...item,
        title: row.title,
        excerpt: plainExcerpt(row.description),
        imageKey: imageOf.get(item.id) ?? null,
      }),
    ),
  }
}

/**
 * Published lab stories, newest first, a page at a time: everyone's, one author's
 * (`username`), or those of one lab (`labId`).
 */
export async function listPublishedLabStories(
  db: Kysely<DB>,
  page: ListPage,
  filter: { username?: string; labId?: string } = {},
): Promise<Page<LabStoryCard>> {
  const { items, nextCursor } = await listPublishedItems(
    db,
    'lab_stories',
    'lab_story_tags',
    page,
    filter,
  )
  return {
    nextCursor,
    items: items.map(
      ({ row, ...item }): LabStoryCard => ({
        ...item,
        title: row.title,
        excerpt: plainExcerpt(row.body),
        imageKey: row.cover_key,
      }),
    ),
  }
}
