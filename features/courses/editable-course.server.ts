import type { Kysely } from 'kysely'
import type { Course, DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { type EditableKind, editableItem, editItem } from '#features/editable-item.server.ts'

export const COURSE: EditableKind<'courses'> = {
  table: 'courses',
  notFound: 'コースが見つかりません',
  forbidden: 'このコースを編集できるのは作成者だけです',
}

/** The course an edit is about, once the server has checked the actor may edit it. */
export function editableCourse(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
): Promise<Course> {
  return editableItem(db, COURSE, actor, courseId)
}

/** Runs one edit of a course under the revision check (see editItem). */
export function editCourse<T extends object>(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
  basedOn: number,
  now: number,
  work: (trx: Kysely<DB>, course: Course) => Promise<T>,
): Promise<T & { revision: number }> {
  return editItem(db, COURSE, actor, courseId, basedOn, now, work)
}
