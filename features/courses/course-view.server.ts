import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { type Actor, mayEdit } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import type { CourseView, LessonEntry, SectionEntry } from '#features/courses/course-views.ts'
import { lessonLocked, premiumReader } from '#features/plans/plan.server.ts'
import { hiddenOf } from '#features/readable-item.server.ts'
import { tagsOfItems } from '#features/tags/item-tags.server.ts'

export type { CourseView, LessonEntry, SectionEntry }

export type CourseAddress = { username: string; courseId: string }

/**
 * A course with its sections and lessons, as `viewer` (undefined for a guest) may see it.
 * Drafts exist only for their owner and admins: anyone else gets "not found", never
 * "forbidden", so a draft's existence does not leak.
 */
export async function readCourseForViewer(
  db: Kysely<DB>,
  address: CourseAddress,
  viewer: Actor | undefined,
): Promise<CourseView> {
  const course = await db
    .selectFrom('courses')
    .innerJoin('users', 'users.id', 'courses.owner_id')
    .selectAll('courses')
    .select(['users.username', 'users.display_name'])
    .where('courses.id', '=', address.courseId)
    .where('users.username', '=', address.username.toLowerCase())
    .executeTakeFirst()
  const canEdit = course !== undefined && mayEdit(viewer, course.owner_id)
  if (!course || ((course.status !== 'published' || course.hidden_at !== null) && !canEdit)) {
    throw ContentError.notFound('コースが見つかりません')
  }

  const [sections, lessons, progress, tags, reader] = await Promise.all([
    db
      .selectFrom('course_sections')
      .select(['id', 'title'])
      .where('course_id', '=', course.id)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('lessons')
      .select(['id', 'section_id', 'title', 'access'])
      .where('course_id', '=', course.id)
      .orderBy('position')
      .execute(),
    viewer
      ? db
          .selectFrom('lesson_progress')
          .select('lesson_id')
          .where('user_id', '=', viewer.userId)
          .where('course_id', '=', course.id)
          .execute()
      : [],
    tagsOfItems(db, 'course_tags', [course.id]),
    premiumReader(db, viewer),
  ])
  const done = new Set(progress.map((row) => row.lesson_id))
  const sectionEntries: SectionEntry[] = sections.map((section) => ({
    id: section.id,
    title: section.title,
    lessons: lessons
      .filter((lesson) => lesson.section_id === section.id)
      .map((lesson) => ({
        id: lesson.id,
        title: lesson.title,
        access: lesson.access,
        locked: lessonLocked(reader, {
          courseAccess: course.access,
          lessonAccess: lesson.access,
          ownerId: course.owner_id,
        }),
        done: done.has(lesson.id),
      })),
  }))
  const ordered = sectionEntries.flatMap((section) => section.lessons)
  return {
    id: course.id,
    title: course.title,
    summary: course.summary,
    level: course.level,
    access: course.access,
    status: course.status,
    hidden: hiddenOf(course),
    publishedAt: course.status === 'published' ? course.published_at : null,
    coverKey: course.cover_key,
    revision: course.revision,
    tags: tags.get(course.id) ?? [],
    author: { username: course.username, displayName: course.display_name },
    canEdit,
    sections: sectionEntries,
    progress: { done: ordered.filter((lesson) => lesson.done).length, total: ordered.length },
    nextLessonId: (ordered.find((lesson) => !lesson.done) ?? ordered[0])?.id ?? null,
  }
}
