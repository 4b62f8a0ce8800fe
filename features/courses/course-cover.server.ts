import type { Kysely } from 'kysely'
import type { z } from 'zod'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import {
  type ImageStorage,
  refusalOfUploadedImage,
} from '#features/images/uploaded-image.server.ts'
import { courseCover } from './course-input.ts'
import { editableCourse, editCourse } from './editable-course.server.ts'

/**
 * Sets or removes a course's cover image. The image must be one the actor uploaded (checked
 * against object storage, whatever key the client names). A cover it replaces is deleted from
 * storage unless another course still shows it.
 */
export async function setCourseCover(
  db: Kysely<DB>,
  images: ImageStorage,
  actor: Actor | undefined,
  courseId: string,
  input: z.input<typeof courseCover>,
  now = Date.now(),
): Promise<{ revision: number; coverKey: string | null }> {
  const { key, revision } = parseInput(courseCover, input)
  // Who may edit first, so that a stranger learns nothing from the image check; the check
  // itself asks object storage, which is kept out of the edit's transaction.
  await editableCourse(db, actor, courseId)
  if (key && actor) {
    const refusal = await refusalOfUploadedImage(images, actor.userId, key, 'カバー画像')
    if (refusal) throw ContentError.validation([{ path: ['key'], message: refusal }])
  }
  let replaced: string | null = null
  const result = await editCourse(db, actor, courseId, revision, now, async (trx, course) => {
    replaced = course.cover_key
    await trx.updateTable('courses').set({ cover_key: key }).where('id', '=', courseId).execute()
    return { coverKey: key }
  })
  if (replaced && replaced !== key && !(await isCoverOfAnyCourse(db, replaced))) {
    await images.delete(replaced)
  }
  return result
}

async function isCoverOfAnyCourse(db: Kysely<DB>, key: string): Promise<boolean> {
  const row = await db
    .selectFrom('courses')
    .select('id')
    .where('cover_key', '=', key)
    .executeTakeFirst()
  return row !== undefined
}
