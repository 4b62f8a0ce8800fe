import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { contentPath, lessonPath } from '#features/content-kinds.ts'

/** A course the learner has started, as the home page's "continue" card shows it. */
export type ContinueLearningCard = {
  course: { id: string; title: string; path: string }
  done: number
  total: number
  /** The first lesson in course order not yet done; null when every lesson is done. */
  nextLesson: { id: string; title: string; path: string } | null
  lastStudiedAt: number
}

/**
 * The published courses a learner has progress in, most recently studied first, each with
 * its next lesson. Three queries whatever the number of courses: progress, lessons, titles.
 */
export async function listContinueLearning(
  db: Kysely<DB>,
  userId: string,
  limit = 6,
): Promise<ContinueLearningCard[]> {
  const started = await db
    .selectFrom('lesson_progress')
    .innerJoin('courses', 'courses.id', 'lesson_progress.course_id')
    .innerJoin('users', 'users.id', 'courses.owner_id')
    .select(({ fn }) => [
      'courses.id',
      'courses.title',
      'users.username',
      fn.max('lesson_progress.done_at').as('last_done_at'),
    ])
    .where('lesson_progress.user_id', '=', userId)
    .where('courses.status', '=', 'published')
    .where('courses.hidden_at', 'is', null)
    .groupBy(['courses.id', 'courses.title', 'users.username'])
    .orderBy('last_done_at', 'desc')
    .limit(limit)
    .execute()
  if (started.length === 0) return []

  const courseIds = started.map((course) => course.id)
  const [lessons, progress] = await Promise.all([
    db
      .selectFrom('lessons')
      .innerJoin('course_sections', 'course_sections.id', 'lessons.section_id')
      .select(['lessons.id', 'lessons.title', 'lessons.course_id'])
      .where('lessons.course_id', 'in', courseIds)
      .orderBy('course_sections.position')
      .orderBy('lessons.position')
      .execute(),
    db
      .selectFrom('lesson_progress')
      .select('lesson_id')
      .where('user_id', '=', userId)
      .where('course_id', 'in', courseIds)
      .execute(),
  ])
  const doneLessons = new Set(progress.map((row) => row.lesson_id))

  return started.map((course) => {
    const path = contentPath('course', course.username, course.id)
    const ofCourse = lessons.filter((lesson) => lesson.course_id === course.id)
    const next = ofCourse.find((lesson) => !doneLessons.has(lesson.id))
    return {
      course: { id: course.id, title: course.title, path },
      done: ofCourse.filter((lesson) => doneLessons.has(lesson.id)).length,
      total: ofCourse.length,
      nextLesson: next
        ? { id: next.id, title: next.title, path: lessonPath(course.username, course.id, next.id) }
        : null,
      lastStudiedAt: Number(course.last_done_at),
    }
  })
}
