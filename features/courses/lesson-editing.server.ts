import type { Kysely } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { Actor } from '../actor.ts'
import { ContentError, parseInput } from '../content-error.ts'
import { lessonUpdate } from './course-input.ts'
import { lessonOf } from './course-structure.server.ts'
import { editableCourse } from './editable-course.server.ts'

/**
 * Saves a lesson's title, body and access (the editor autosaves it). The lesson has its own
 * revision, so autosaving a body does not conflict with edits of the course's other parts.
 */
export async function updateLesson(
  db: Kysely<DB>,
  actor: Actor | undefined,
  address: { courseId: string; lessonId: string },
  input: unknown,
  now = Date.now(),
): Promise<{ revision: number }> {
  const fields = parseInput(lessonUpdate, input)
  return db.transaction().execute(async (trx) => {
    await editableCourse(trx, actor, address.courseId)
    const lesson = await lessonOf(trx, address)
    if (lesson.revision !== fields.revision) throw ContentError.stale()
    const updated = await trx
      .updateTable('lessons')
      .set((eb) => ({
        title: fields.title,
        body: fields.body,
        access: fields.access,
        revision: eb('revision', '+', 1),
        updated_at: now,
      }))
      .where('id', '=', lesson.id)
      .where('revision', '=', fields.revision)
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) !== 1) throw ContentError.stale()
    await trx
      .updateTable('courses')
      .set({ updated_at: now })
      .where('id', '=', address.courseId)
      .execute()
    return { revision: fields.revision + 1 }
  })
}
