import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import type { CourseDraft, EditorLesson } from '#features/courses/course-views.ts'
import { tagsOfItems } from '#features/tags/item-tags.server.ts'
import { withPendingCourse } from './course-revisions.server.ts'
import { editableCourse } from './editable-course.server.ts'

export type { CourseDraft, EditorLesson }

/** The course as its editor opens it; only for its owner or an admin (see editableCourse). */
export async function readCourseForEditor(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
): Promise<CourseDraft> {
  const course = await editableCourse(db, actor, courseId)
  const [sections, lessons, tags] = await Promise.all([
    db
      .selectFrom('course_sections')
      .select(['id', 'title'])
      .where('course_id', '=', courseId)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('lessons')
      .select(['id', 'section_id', 'title', 'body', 'access', 'revision'])
      .where('course_id', '=', courseId)
      .orderBy('position')
      .execute(),
    tagsOfItems(db, 'course_tags', [courseId]),
  ])
  return withPendingCourse(db, {
    id: course.id,
    title: course.title,
    summary: course.summary,
    level: course.level,
    access: course.access,
    coverKey: course.cover_key,
    tags: tags.get(courseId) ?? [],
    status: course.status,
    revision: course.revision,
    sections: sections.map((section) => ({
      id: section.id,
      title: section.title,
      lessons: lessons
        .filter((lesson) => lesson.section_id === section.id)
        .map(({ section_id: _, ...lesson }) => lesson),
    })),
  })
}
