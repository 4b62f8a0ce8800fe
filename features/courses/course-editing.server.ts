import type { Kysely } from 'kysely'
import type { z } from 'zod'
import { newContentId } from '#db/ids.ts'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import { deleteItem, markDraft, markPublished } from '#features/editable-item.server.ts'
import { replaceItemTags } from '#features/tags/item-tags.server.ts'
import { basedOnRevision, courseFields } from './course-input.ts'
import { applyPendingCourse } from './course-revisions.server.ts'
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

/** Saves the course's own fields (the editor's form, autosaved; see course-revisions.server.ts). */
export { updateCourse } from './course-revisions.server.ts'

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
    const lessons = await trx
      .selectFrom('lessons')
      .innerJoin('course_sections', 'course_sections.id', 'lessons.section_id')
      .select([
        'lessons.id',
        'lessons.title',
        'lessons.body',
        'course_sections.id as section_id',
        'course_sections.title as section_title',
      ])
      .where('lessons.course_id', '=', courseId)
      .orderBy('course_sections.position')
      .orderBy('lessons.position')
      .execute()
    if (lessons.length === 0) {
      throw ContentError.validation([
        { path: ['sections'], message: '公開するにはレッスンを 1 つ以上追加してください' },
      ])
    }
    const empty = lessons.flatMap((lesson) =>
      emptyLessonIssues(
        lesson,
        lessons.filter((other) => other.section_id === lesson.section_id).indexOf(lesson) + 1,
      ),
    )
    if (empty.length > 0) {
      const names = [...new Set(empty.map((issue) => issue.name))].join('、')
      throw new ContentError(
        'VALIDATION_FAILED',
        `中身が空のレッスンがあるため公開できません: ${names}`,
        ContentError.validation(empty).fields,
      )
    }
    return markPublished(trx, 'courses', course, 'course', now)
  })
}

/**
 * Why a lesson is not ready to be read, keyed `lessons.{id}.title|body`: a reader must never
 * open a published lesson and find nothing. Titles are required on every write; the check
 * still covers one that is blank (written before that rule, or by the seed).
 */
function emptyLessonIssues(
  lesson: { id: string; title: string; body: string; section_title: string },
  /** Its place in its section, from 1: names a lesson without a title. */
  place: number,
) {
  const name = lesson.title.trim()
    ? `レッスン「${lesson.title.trim()}」`
    : `セクション「${lesson.section_title}」の ${place} 番目のレッスン`
  const issues: { path: string[]; message: string; name: string }[] = []
  if (!lesson.title.trim()) {
    issues.push({
      path: ['lessons', lesson.id, 'title'],
      message: `${name}に名前がありません。名前を付けてから公開してください`,
      name,
    })
  }
  if (!lesson.body.trim()) {
    issues.push({
      path: ['lessons', lesson.id, 'body'],
      message: `${name}の本文が空です。本文を書いてから公開してください`,
      name,
    })
  }
  return issues
}

/**
 * Takes a course back to draft: it leaves the catalogue and only its owner sees it. Its pending
 * fields and lessons' become the draft's text, which its editor and 公開する work on.
 */
export async function unpublishCourse(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
  input: z.input<typeof basedOnRevision>,
  now = Date.now(),
): Promise<{ revision: number }> {
  const { revision } = parseInput(basedOnRevision, input)
  return editCourse(db, actor, courseId, revision, now, async (trx) => {
    await applyPendingCourse(trx, courseId, now, false)
    return markDraft(trx, 'courses', courseId)
  })
}

/** Deletes a course with its sections, lessons, progress and tag links (foreign keys cascade). */
export async function deleteCourse(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
): Promise<void> {
  await deleteItem(db, COURSE, actor, courseId)
}
