import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { afterCursor } from '#features/pagination.server.ts'
import { type Page, pageFrom } from '#features/pagination.ts'
import { tagsOfItems } from '#features/tags/item-tags.server.ts'
import type { CatalogueQuery } from './catalogue-query.ts'
import type { CourseCard } from './course-card.ts'

export {
  type CatalogueFilters,
  type CatalogueQuery,
  catalogueFilters,
  catalogueQuery,
} from './catalogue-query.ts'

/** Published courses, newest first, a page at a time, narrowed by tag, level and access. */
export async function listPublishedCourses(
  db: Kysely<DB>,
  { cursor, limit, tag, level, access }: CatalogueQuery,
): Promise<Page<CourseCard>> {
  let query = publishedCourseCards(db)
  if (level) query = query.where('courses.level', '=', level)
  if (access) query = query.where('courses.access', '=', access)
  if (tag) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('course_tags')
          .innerJoin('tags', 'tags.id', 'course_tags.tag_id')
          .select('course_tags.subject_id')
          .whereRef('course_tags.subject_id', '=', 'courses.id')
          .where('tags.name', '=', tag),
      ),
    )
  }
  if (cursor) {
    query = query.where(afterCursor(cursor, 'courses.published_at', 'courses.id'))
  }
  const rows = await query
    .orderBy('courses.published_at', 'desc')
    .orderBy('courses.id', 'desc')
    .limit(limit + 1)
    .execute()

  return pageFrom(await withTags(db, rows), limit, (card) => ({
    at: card.publishedAt,
    id: card.id,
  }))
}

/** The tags used by published courses, most used first: the catalogue's tag filter offers these. */
export async function listCatalogueTags(db: Kysely<DB>, limit = 30): Promise<string[]> {
  const rows = await db
    .selectFrom('course_tags')
    .innerJoin('tags', 'tags.id', 'course_tags.tag_id')
    .innerJoin('courses', 'courses.id', 'course_tags.subject_id')
    .where('courses.status', '=', 'published')
    .where('courses.hidden_at', 'is', null)
    .select(({ fn }) => ['tags.name', fn.countAll<number>().as('uses')])
    .groupBy('tags.name')
    .orderBy('uses', 'desc')
    .orderBy('tags.name')
    .limit(limit)
    .execute()
  return rows.map((row) => row.name)
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
  return row && (await withTags(db, [row]))[0]
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
  return withTags(db, rows)
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
    .where('courses.hidden_at', 'is', null)
}

type CourseCardRow = Awaited<
  ReturnType<ReturnType<typeof publishedCourseCards>['executeTakeFirstOrThrow']>
>

/** Cards of the rows, each with its tags (one query for the page). */
async function withTags(db: Kysely<DB>, rows: readonly CourseCardRow[]): Promise<CourseCard[]> {
  const tags = await tagsOfItems(
    db,
    'course_tags',
    rows.map((row) => row.id),
  )
  return rows.map((row) => toCourseCard(row, tags.get(row.id) ?? []))
}

function toCourseCard(row: CourseCardRow, tags: string[]): CourseCard {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    level: row.level,
    access: row.access,
    publishedAt: row.published_at ?? 0,
    coverKey: row.cover_key,
    tags,
    author: { username: row.username, displayName: row.display_name },
  }
}
