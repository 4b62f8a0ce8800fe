import type { Kysely } from 'kysely'
import type { Course, DB } from '../../db/schema.ts'
import { type Actor, mayEdit } from '../actor.ts'
import { ContentError } from '../content-error.ts'

/**
 * The course an edit is about, once the server has checked the actor may edit it: a guest
 * must sign in; someone else's draft is "not found" (its existence does not leak); someone
 * else's published course is "forbidden".
 */
export async function editableCourse(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
): Promise<Course> {
  if (!actor) throw ContentError.signInRequired()
  const course = await db
    .selectFrom('courses')
    .selectAll()
    .where('id', '=', courseId)
    .executeTakeFirst()
  if (!course) throw ContentError.notFound('コースが見つかりません')
  if (!mayEdit(actor, course.owner_id)) {
    if (course.status === 'draft') throw ContentError.notFound('コースが見つかりません')
    throw new ContentError('FORBIDDEN', 'このコースを編集できるのは作成者だけです')
  }
  return course
}

/**
 * Runs one edit of a course in a transaction: checks the actor, refuses an edit based on a
 * stale revision, and bumps the revision with the edit, so a second tab cannot overwrite it
 * silently. The guarded update also catches a save that raced in between.
 */
export async function editCourse<T extends object>(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
  basedOn: number,
  now: number,
  work: (trx: Kysely<DB>, course: Course) => Promise<T>,
): Promise<T & { revision: number }> {
  return db.transaction().execute(async (trx) => {
    const course = await editableCourse(trx, actor, courseId)
    if (course.revision !== basedOn) throw ContentError.stale()
    const result = await work(trx, course)
    const bumped = await trx
      .updateTable('courses')
      .set((eb) => ({ revision: eb('revision', '+', 1), updated_at: now }))
      .where('id', '=', courseId)
      .where('revision', '=', basedOn)
      .executeTakeFirst()
    if (Number(bumped.numUpdatedRows) !== 1) throw ContentError.stale()
    return { ...result, revision: basedOn + 1 }
  })
}
