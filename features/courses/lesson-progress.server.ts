import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import { recordHistoryEvent } from '#features/history/history-events.server.ts'
import type { CourseAddress } from './course-view.server.ts'
import { readLessonForViewer } from './lesson-view.server.ts'

/**
 * Marks a lesson done for the learner: records progress and a `lesson_done` history event.
 * Idempotent: marking again keeps the first time and records nothing more.
 */
export async function markLessonDone(
  db: Kysely<DB>,
  address: CourseAddress & { lessonId: string },
  learner: Actor | undefined,
  now = Date.now(),
): Promise<{ doneAt: number; newlyDone: boolean }> {
  if (!learner) throw ContentError.signInRequired()
  const { course, lesson } = await readLessonForViewer(db, address, learner)
  if (lesson.locked) {
    throw new ContentError('LOCKED', 'このレッスンはプレミアムプランで受講できます')
  }
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('lesson_progress')
      .values({ user_id: learner.userId, lesson_id: lesson.id, course_id: course.id, done_at: now })
      .onConflict((conflict) => conflict.columns(['user_id', 'lesson_id']).doNothing())
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) {
      await recordHistoryEvent(trx, {
        userId: learner.userId,
        kind: 'lesson_done',
        subjectKind: 'lesson',
        subjectId: lesson.id,
        at: now,
      })
      return { doneAt: now, newlyDone: true }
    }
    const existing = await trx
      .selectFrom('lesson_progress')
      .select('done_at')
      .where('user_id', '=', learner.userId)
      .where('lesson_id', '=', lesson.id)
      .executeTakeFirstOrThrow()
    return { doneAt: existing.done_at, newlyDone: false }
  })
}

/**
 * Takes back "done" for the learner: removes the progress and the `lesson_done` event it
 * recorded, so the course's progress and the history agree again. Undoing a lesson that is not
 * done changes nothing.
 */
export async function unmarkLessonDone(
  db: Kysely<DB>,
  address: CourseAddress & { lessonId: string },
  learner: Actor | undefined,
): Promise<{ wasDone: boolean }> {
  if (!learner) throw ContentError.signInRequired()
  const { lesson } = await readLessonForViewer(db, address, learner)
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('lesson_progress')
      .where('user_id', '=', learner.userId)
      .where('lesson_id', '=', lesson.id)
      .executeTakeFirst()
    await trx
      .deleteFrom('history_events')
      .where('user_id', '=', learner.userId)
      .where('kind', '=', 'lesson_done')
      .where('subject_kind', '=', 'lesson')
      .where('subject_id', '=', lesson.id)
      .execute()
    return { wasDone: Number(removed.numDeletedRows) > 0 }
  })
}
