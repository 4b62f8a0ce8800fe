import type { Kysely } from 'kysely'
import type { z } from 'zod'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import { checkMarkdownImages, type ImageStorage } from '#features/images/uploaded-image.server.ts'
import { dropPendingRevision, holdPendingRevision } from '#features/pending-revisions.server.ts'
import { lessonUpdate } from './course-input.ts'
import { lessonOf } from './course-structure.server.ts'
import { editableCourse } from './editable-course.server.ts'

/**
 * Saves a lesson's title, body and access (the editor autosaves it). The lesson has its own
 * revision, so autosaving a body does not conflict with edits of the course's other parts.
 * Images new to the body must be ones the course's owner uploaded.
 */
export async function updateLesson(
  db: Kysely<DB>,
  images: ImageStorage,
  actor: Actor | undefined,
  address: { courseId: string; lessonId: string },
  input: z.input<typeof lessonUpdate>,
  now = Date.now(),
): Promise<{ revision: number }> {
  const fields = parseInput(lessonUpdate, input)
  // Ownership first, so that someone else learns nothing from the image checks; storage is
  // read outside the transaction below, which checks ownership and revision again.
  const course = await editableCourse(db, actor, address.courseId)
  const saved = await db
    .selectFrom('lessons')
    .select('body')
    .where('id', '=', (await lessonOf(db, address)).id)
    .executeTakeFirstOrThrow()
  await checkMarkdownImages(images, course.owner_id, 'body', fields.body, saved.body)
  return db.transaction().execute(async (trx) => {
    const course = await editableCourse(trx, actor, address.courseId)
    const lesson = await lessonOf(trx, address)
    if (lesson.revision !== fields.revision) throw ContentError.stale()
    // A published course's lesson keeps what learners read until the course's 「更新する」.
    const held = course.status === 'published'
    const { revision: _, ...form } = fields
    if (held) {
      await holdPendingRevision(trx, 'lesson', lesson.id, course.owner_id, form, now)
    } else {
      await dropPendingRevision(trx, 'lesson', lesson.id)
    }
    const updated = await trx
      .updateTable('lessons')
      .set((eb) => ({
        ...(held ? {} : form),
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
