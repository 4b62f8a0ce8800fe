import type { Kysely } from 'kysely'
import type { z } from 'zod'
import { newContentId } from '#db/ids.ts'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import { deleteItem, markDraft, markPublished } from '#features/editable-item.server.ts'
import { replaceItemTags } from '#features/tags/item-tags.server.ts'
import { basedOnRevision, courseFields, courseUpdate } from './course-input.ts'
import { COURSE, editCourse } from './editable-course.server.ts'

/** Creates a course as a draft owned by the actor. */
export async function createCourse(
  db: Kysely<DB>,
  actor: Actor | undefined,
  input: z.input<typeof courseFields>,
  now = Date.now(),
): Promise<{ id: string; revision: number }> {
  if (!actor) throw ContentError.signInRequired()
  const fields = parseInput(courseFields, input)
  const id = newContentId()
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('courses')
      .values({
        id,
        owner_id: actor.userId,
        title: fields.title,
        summary: fields.summary,
        level: fields.level,
        access: fields.access,
        status: 'draft',
        published_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute()
    await replaceItemTags(trx, 'course_tags', id, fields.tags, now)
  })
  return { id, revision: 1 }
}

/** Saves the course's own fields (the editor's form, autosaved). */
export async function updateCourse(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
  input: z.input<typeof courseUpdate>,
  now = Date.now(),
): Promise<{ revision: number }> {
  const fields = parseInput(courseUpdate, input)
  return editCourse(db, actor, courseId, fields.revision, now, async (trx) => {
    await trx
      .updateTable('courses')
      .set({
        title: fields.title,
        summary: fields.summary,
        level: fields.level,
        access: fields.access,
      })
      .where('id', '=', courseId)
      .execute()
    await replaceItemTags(trx, 'course_tags', courseId, fields.tags, now)
    return {}
  })
}

/** Publishes a draft: it appears in the catalogue, and the author's history records it. */
export async function publishCourse(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
  input: z.input<typeof basedOnRevision>,
  now = Date.now(),
): Promise<{ revision: number; publishedAt: number }> {
  const { revision } = parseInput(basedOnRevision, input)
  return editCourse(db, actor, courseId, revision, now, async (trx, course) => {
    if (course.status === 'published') {
      return { publishedAt: course.published_at ?? now }
    }
    const lesson = await trx
      .selectFrom('lessons')
      .select('id')
      .where('course_id', '=', courseId)
      .executeTakeFirst()
    if (!lesson) {
      throw ContentError.validation([
        { path: ['sections'], message: '公開するにはレッスンを 1 つ以上追加してください' },
      ])
    }
    return markPublished(trx, 'courses', course, 'course', now)
  })
}

/** Takes a course back to draft: it leaves the catalogue and only its owner sees it. */
export async function unpublishCourse(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
  input: z.input<typeof basedOnRevision>,
  now = Date.now(),
): Promise<{ revision: number }> {
  const { revision } = parseInput(basedOnRevision, input)
  return editCourse(db, actor, courseId, revision, now, (trx) =>
    markDraft(trx, 'courses', courseId),
  )
}

/** Deletes a course with its sections, lessons, progress and tag links (foreign keys cascade). */
export async function deleteCourse(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
): Promise<void> {
  await deleteItem(db, COURSE, actor, courseId)
}
