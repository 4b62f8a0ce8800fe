import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { DB } from '#db/schema.ts'
import { cursorParameter, type Page, pageSizeParameter } from '#features/pagination.ts'
import { listPublishedItems } from '#features/published-lists.server.ts'
import type { StudyCard } from '#features/studies/study-views.ts'

export type { StudyCard }

/** A page of a list of published items (studies, labs, lab stories): `?cursor=&limit=`. */
export const studyListQuery = z.object({
  cursor: cursorParameter.optional(),
  limit: pageSizeParameter,
})
export type StudyListQuery = z.infer<typeof studyListQuery>

/** Published studies, newest first, a page at a time; only one author's when `username` is given. */
export async function listPublishedStudies(
  db: Kysely<DB>,
  query: StudyListQuery,
  username?: string,
): Promise<Page<StudyCard>> {
  const page = await listPublishedItems(db, 'studies', 'study_tags', query, { username })
  return {
    nextCursor: page.nextCursor,
    items: page.items.map(
      ({ row, ...item }): StudyCard => ({
        title: row.title,
        summary: row.summary,
        ...item,
      }),
    ),
  }
}
