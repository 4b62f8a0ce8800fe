import type { Kysely } from 'kysely'
import type { z } from 'zod'
import { newContentId } from '#db/ids.ts'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import { basedOnRevision, type Move, move, newLesson, sectionFields } from './course-input.ts'
import { editCourse } from './editable-course.server.ts'

// Sections and lessons of a course. Every change here is an edit of the course: it names the
// course revision it was based on and bumps it (docs/decisions/013-learning-content-model.md).

const SECTION_NOT_FOUND = 'セクションが見つかりません'
const LESSON_NOT_FOUND = 'レッスンが見つかりません'

export async function addSection(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
  input: z.input<typeof sectionFields>,
  now = Date.now(),
): Promise<{ sectionId: string; revision: number }> {
  const fields = parseInput(sectionFields, input)
  return editCourse(db, actor, courseId, fields.revision, now, async (trx) => {
    const sectionId = newContentId()
    await trx
      .insertInto('course_sections')
      .values({
        id: sectionId,
        course_id: courseId,
        title: fields.title,
        position: await nextPosition(trx, 'course_sections', 'course_id', courseId),
        created_at: now,
        updated_at: now,
      })
      .execute()
    return { sectionId }
  })
}

export async function renameSection(
  db: Kysely<DB>,
  actor: Actor | undefined,
  address: { courseId: string; sectionId: string },
  input: z.input<typeof sectionFields>,
  now = Date.now(),
): Promise<{ revision: number }> {
  const fields = parseInput(sectionFields, input)
  return editCourse(db, actor, address.courseId, fields.revision, now, async (trx) => {
    await sectionOf(trx, address)
    await trx
      .updateTable('course_sections')
      .set({ title: fields.title, updated_at: now })
      .where('id', '=', address.sectionId)
      .execute()
    return {}
  })
}

/** Moves a section one place up or down among the course's sections. */
export async function moveSection(
  db: Kysely<DB>,
  actor: Actor | undefined,
  address: { courseId: string; sectionId: string },
  input: z.input<typeof move>,
  now = Date.now(),
): Promise<{ revision: number }> {
  const fields = parseInput(move, input)
  return editCourse(db, actor, address.courseId, fields.revision, now, async (trx) => {
    await sectionOf(trx, address)
    const ids = (
      await trx
        .selectFrom('course_sections')
        .select('id')
        .where('course_id', '=', address.courseId)
        .orderBy('position')
        .execute()
    ).map((row) => row.id)
    await writeOrder(trx, 'course_sections', moved(ids, address.sectionId, fields.direction), now)
    return {}
  })
}

/** Deletes a section with its lessons. */
export async function deleteSection(
  db: Kysely<DB>,
  actor: Actor | undefined,
  address: { courseId: string; sectionId: string },
  input: z.input<typeof basedOnRevision>,
  now = Date.now(),
): Promise<{ revision: number }> {
  const { revision } = parseInput(basedOnRevision, input)
  return editCourse(db, actor, address.courseId, revision, now, async (trx) => {
    await sectionOf(trx, address)
    await trx.deleteFrom('course_sections').where('id', '=', address.sectionId).execute()
    return {}
  })
}

/** Adds an empty free lesson at the end of a section. */
export async function addLesson(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
  input: z.input<typeof newLesson>,
  now = Date.now(),
): Promise<{ lessonId: string; revision: number }> {
  const fields = parseInput(newLesson, input)
  return editCourse(db, actor, courseId, fields.revision, now, async (trx) => {
    await sectionOf(trx, { courseId, sectionId: fields.sectionId })
    const lessonId = newContentId()
    await trx
      .insertInto('lessons')
      .values({
        id: lessonId,
        course_id: courseId,
        section_id: fields.sectionId,
        title: fields.title,
        access: 'free',
        position: await nextPosition(trx, 'lessons', 'section_id', fields.sectionId),
        created_at: now,
        updated_at: now,
      })
      .execute()
    return { lessonId }
  })
}

/**
 * Moves a lesson one place up or down. At the edge of its section it crosses into the
 * neighbouring section (to its end when moving up, its start when moving down), so buttons
 * alone can take a lesson anywhere.
 */
export async function moveLesson(
  db: Kysely<DB>,
  actor: Actor | undefined,
  address: { courseId: string; lessonId: string },
  input: unknown,
  now = Date.now(),
): Promise<{ revision: number }> {
  const fields = parseInput(move, input)
  return editCourse(db, actor, address.courseId, fields.revision, now, async (trx) => {
    const lesson = await lessonOf(trx, address)
    const sections = await trx
      .selectFrom('course_sections')
      .select('id')
      .where('course_id', '=', address.courseId)
      .orderBy('position')
      .execute()
    const siblings = await lessonIdsOf(trx, lesson.section_id)
    const at = siblings.indexOf(lesson.id)
    const crossing =
      (fields.direction === 'up' && at === 0) ||
      (fields.direction === 'down' && at === siblings.length - 1)
    if (!crossing) {
      await writeOrder(trx, 'lessons', moved(siblings, lesson.id, fields.direction), now)
      return {}
    }
    const sectionAt = sections.findIndex((section) => section.id === lesson.section_id)
    const target = sections[sectionAt + (fields.direction === 'up' ? -1 : 1)]
    if (!target) return {}
    const targetLessons = (await lessonIdsOf(trx, target.id)).filter((id) => id !== lesson.id)
    const order =
      fields.direction === 'up' ? [...targetLessons, lesson.id] : [lesson.id, ...targetLessons]
    await trx
      .updateTable('lessons')
      .set({ section_id: target.id })
      .where('id', '=', lesson.id)
      .execute()
    await writeOrder(trx, 'lessons', order, now)
    await writeOrder(
      trx,
      'lessons',
      siblings.filter((id) => id !== lesson.id),
      now,
    )
    return {}
  })
}

export async function deleteLesson(
  db: Kysely<DB>,
  actor: Actor | undefined,
  address: { courseId: string; lessonId: string },
  input: unknown,
  now = Date.now(),
): Promise<{ revision: number }> {
  const { revision } = parseInput(basedOnRevision, input)
  return editCourse(db, actor, address.courseId, revision, now, async (trx) => {
    await lessonOf(trx, address)
    await trx.deleteFrom('lessons').where('id', '=', address.lessonId).execute()
    return {}
  })
}

/** A section, only if it belongs to the course (a forged id from another course is not found). */
async function sectionOf(trx: Kysely<DB>, address: { courseId: string; sectionId: string }) {
  const section = await trx
    .selectFrom('course_sections')
    .select('id')
    .where('id', '=', address.sectionId)
    .where('course_id', '=', address.courseId)
    .executeTakeFirst()
  if (!section) throw ContentError.notFound(SECTION_NOT_FOUND)
  return section
}

/** A lesson, only if it belongs to the course. */
export async function lessonOf(trx: Kysely<DB>, address: { courseId: string; lessonId: string }) {
  const lesson = await trx
    .selectFrom('lessons')
    .select(['id', 'section_id', 'revision'])
    .where('id', '=', address.lessonId)
    .where('course_id', '=', address.courseId)
    .executeTakeFirst()
  if (!lesson) throw ContentError.notFound(LESSON_NOT_FOUND)
  return lesson
}

async function lessonIdsOf(trx: Kysely<DB>, sectionId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('lessons')
    .select('id')
    .where('section_id', '=', sectionId)
    .orderBy('position')
    .execute()
  return rows.map((row) => row.id)
}

async function nextPosition(
  trx: Kysely<DB>,
  table: 'course_sections' | 'lessons',
  parent: 'course_id' | 'section_id',
  parentId: string,
): Promise<number> {
  const row = await trx
    .selectFrom(table)
    .select((eb) => eb.fn.max<number | null>('position').as('last'))
    .where(parent, '=', parentId)
    .executeTakeFirst()
  return (row?.last ?? -1) + 1
}

/** `ids` with `id` swapped with its neighbour in `direction`; unchanged at the edge. */
function moved(ids: string[], id: string, direction: Move['direction']): string[] {
  const at = ids.indexOf(id)
  const to = direction === 'up' ? at - 1 : at + 1
  if (at < 0 || to < 0 || to >= ids.length) return ids
  const order = [...ids]
  order[at] = ids[to] as string
  order[to] = id
  return order
}

/** Rewrites positions 0…n-1 in the given order (see decision 013: dense integer positions). */
async function writeOrder(
  trx: Kysely<DB>,
  table: 'course_sections' | 'lessons',
  ids: readonly string[],
  now: number,
): Promise<void> {
  for (const [position, id] of ids.entries()) {
    await trx.updateTable(table).set({ position, updated_at: now }).where('id', '=', id).execute()
  }
}
