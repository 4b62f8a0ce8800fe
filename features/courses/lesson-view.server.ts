import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import type { LessonView } from '#features/courses/course-views.ts'
import { type CourseAddress, readCourseForViewer } from './course-view.server.ts'

export type { LessonView }

/** One lesson of a course as `viewer` may read it: locked premium lessons come without body. */
export async function readLessonForViewer(
  db: Kysely<DB>,
  address: CourseAddress & { lessonId: string },
  viewer: Actor | undefined,
): Promise<LessonView> {
  const course = await readCourseForViewer(db, address, viewer)
  const ordered = course.sections.flatMap((section) =>
    section.lessons.map((lesson) => ({ ...lesson, sectionTitle: section.title })),
  )
  const index = ordered.findIndex((lesson) => lesson.id === address.lessonId)
  const entry = ordered[index]
  if (!entry) throw ContentError.notFound('レッスンが見つかりません')
  const body = entry.locked
    ? null
    : ((
        await db
          .selectFrom('lessons')
          .select('body')
          .where('id', '=', entry.id)
          .executeTakeFirstOrThrow()
      ).body ?? '')
  const neighbour = (at: number) => {
    const lesson = ordered[at]
    return lesson ? { id: lesson.id, title: lesson.title } : null
  }
  return {
    course,
    lesson: { ...entry, body },
    previous: neighbour(index - 1),
    next: neighbour(index + 1),
  }
}
