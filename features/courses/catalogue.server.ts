import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { DB } from '../../db/schema.ts'
import { cursorParameter, type Page, pageFrom, pageSizeParameter } from '../pagination.ts'
import type { CourseCard } from './course-card.ts'

export const catalogueQuery = z.object({
  cursor: cursorParameter.optional(),
  limit: pageSizeParameter,
})
export type CatalogueQuery = z.infer<typeof catalogueQuery>

/** Published courses, newest first, a page at a time. */
export async function listPublishedCourses(
  db: Kysely<DB>,
  { cursor, limit }: CatalogueQuery,
): Promise<Page<CourseCard>> {
  let query = publishedCourseCards(db)
  if (cursor) {
    query = query.where(({ eb, or, and }) =>
      or([
        eb('courses.published_at', '<', cursor.at),
        and([eb('courses.published_at', '=', cursor.at), eb('courses.id', '<', cursor.id)]),
      ]),
    )
  }
  const rows = await query
    .orderBy('courses.published_at', 'desc')
    .orderBy('courses.id', 'desc')
    .limit(limit + 1)
    .execute()

  return pageFrom(rows.map(toCourseCard), limit, (card) => ({ at: card.publishedAt, id: card.id }))
}

/** A published course, addressed the way its URL addresses it: by author and id. */
export async function findPublishedCourse(
  db: Kysely<DB>,
  address: { username: string; courseId: string },
): Promise<CourseCard | undefined> {
  const row = await publishedCourseCards(db)
    .where('courses.id', '=', address.courseId)
    .where('users.username', '=', address.username.toLowerCase())
    .executeTakeFirst()
  return row && toCourseCard(row)
}

/** Published courses of one author, newest first. */
export async function listCoursesByAuthor(
  db: Kysely<DB>,
  username: string,
  limit = 20,
): Promise<CourseCard[]> {
  const rows = await publishedCourseCards(db)
    .where('users.username', '=', username.toLowerCase())
    .orderBy('courses.published_at', 'desc')
    .orderBy('courses.id', 'desc')
    .limit(limit)
    .execute()
  return rows.map(toCourseCard)
}

function publishedCourseCards(db: Kysely<DB>) {
  return db
    .selectFrom('courses')
    .innerJoin('users', 'users.id', 'courses.owner_id')
    .select([
      'courses.id',
      'courses.title',
      'courses.summary',
      'courses.level',
      'courses.access',
      'courses.published_at',
      'courses.cover_key',
      'users.username',
      'users.display_name',
    ])
    .where('courses.status', '=', 'published')
}

type CourseCardRow = Awaited<
  ReturnType<ReturnType<typeof publishedCourseCards>['executeTakeFirstOrThrow']>
>

function toCourseCard(row: CourseCardRow): CourseCard {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    level: row.level,
    access: row.access,
    publishedAt: row.published_at ?? 0,
    coverKey: row.cover_key,
    author: { username: row.username, displayName: row.display_name },
  }
}
