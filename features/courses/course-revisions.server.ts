import type { Kysely } from 'kysely'
import type { z } from 'zod'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import {
  dropPendingRevision,
  type PendingSpec,
  saveEditorFields,
  withPendingRevision,
} from '#features/pending-revisions.server.ts'
import { replaceItemTags } from '#features/tags/item-tags.server.ts'
import { basedOnRevision, courseFields, courseUpdate, lessonUpdate } from './course-input.ts'
import type { CourseDraft } from './course-views.ts'
import { COURSE, editCourse } from './editable-course.server.ts'

type CourseForm = z.output<typeof courseFields>

async function writeCourseFields(trx: Kysely<DB>, id: string, fields: CourseForm, now: number) {
  await trx
    .updateTable('courses')
    .set({
      title: fields.title,
      summary: fields.summary,
      level: fields.level,
      access: fields.access,
    })
    .where('id', '=', id)
    .execute()
  await replaceItemTags(trx, 'course_tags', id, fields.tags, now)
}

/**
 * Saves the course's own fields (the editor's form, autosaved); a published course's edits wait
 * as its pending revision, like its lessons' (lesson-editing.server.ts), until 「更新する」.
 */
export function updateCourse(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
  input: z.input<typeof courseUpdate>,
  now = Date.now(),
): Promise<{ revision: number }> {
  const spec: PendingSpec<'courses', z.output<typeof courseUpdate>> = {
    kind: COURSE,
    subjectKind: 'course',
    update: courseUpdate,
    check: async () => {},
    write: writeCourseFields,
  }
  return saveEditorFields(db, spec, actor, courseId, input, now)
}

/** The pending revisions of a course's lessons, by lesson id. */
async function pendingLessons(db: Kysely<DB>, courseId: string) {
  return db
    .selectFrom('pending_revisions')
    .innerJoin('lessons', 'lessons.id', 'pending_revisions.subject_id')
    .select(['lessons.id', 'pending_revisions.fields', 'pending_revisions.created_at'])
    .where('pending_revisions.subject_kind', '=', 'lesson')
    .where('lessons.course_id', '=', courseId)
    .execute()
}

const lessonForm = lessonUpdate.omit({ revision: true })

/**
 * Inside an edit: the course's own pending fields and its lessons' written to their rows, and
 * the pending revisions dropped. `strict` refuses fields that no longer read under today's
 * rules; otherwise those stay pending (shown as far as they read). Answers whether anything was
 * pending.
 */
export async function applyPendingCourse(
  trx: Kysely<DB>,
  courseId: string,
  now: number,
  strict: boolean,
): Promise<boolean> {
  const read = <S extends z.ZodType>(schema: S, fields: string): z.output<S> | undefined =>
    strict ? parseInput(schema, JSON.parse(fields)) : schema.safeParse(JSON.parse(fields)).data
  const own = await trx
    .selectFrom('pending_revisions')
    .select('fields')
    .where('subject_kind', '=', 'course')
    .where('subject_id', '=', courseId)
    .executeTakeFirst()
  const lessons = await pendingLessons(trx, courseId)
  const course = own && read(courseFields, own.fields)
  if (course) {
    await writeCourseFields(trx, courseId, course, now)
    await dropPendingRevision(trx, 'course', courseId)
  }
  for (const lesson of lessons) {
    const form = read(lessonForm, lesson.fields)
    if (!form) continue
    await trx.updateTable('lessons').set(form).where('id', '=', lesson.id).execute()
    await dropPendingRevision(trx, 'lesson', lesson.id)
  }
  return Boolean(own) || lessons.length > 0
}

/**
 * 「更新する」 of a course: its own pending fields and every lesson's become what learners read,
 * in one transaction. Lessons keep their revisions (their editors already show this text).
 */
export async function publishCourseRevision(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
  input: z.input<typeof basedOnRevision>,
  now = Date.now(),
): Promise<{ revision: number }> {
  const { revision } = parseInput(basedOnRevision, input)
  return editCourse(db, actor, courseId, revision, now, async (trx) => {
    if (!(await applyPendingCourse(trx, courseId, now, true))) {
      throw new ContentError('CONFLICT', 'まだ公開していない変更はありません')
    }
    return {}
  })
}

/** 「変更を破棄」 of a course: its own and its lessons' pending revisions are dropped. */
export async function discardCourseRevision(
  db: Kysely<DB>,
  actor: Actor | undefined,
  courseId: string,
  input: z.input<typeof basedOnRevision>,
  now = Date.now(),
): Promise<{ revision: number }> {
  const { revision } = parseInput(basedOnRevision, input)
  return editCourse(db, actor, courseId, revision, now, async (trx) => {
    await dropPendingRevision(trx, 'course', courseId)
    for (const lesson of await pendingLessons(trx, courseId)) {
      await dropPendingRevision(trx, 'lesson', lesson.id)
    }
    return {}
  })
}

/** The course as its editor shows it: pending fields of the course and its lessons over the saved. */
export async function withPendingCourse(
  db: Kysely<DB>,
  draft: Omit<CourseDraft, 'pendingSince'>,
): Promise<CourseDraft> {
  const course = await withPendingRevision(db, 'course', draft.id, courseFields, draft)
  const lessons = await pendingLessons(db, draft.id)
  const byId = new Map(lessons.map((lesson) => [lesson.id, lesson]))
  const since = [course.pendingSince, ...lessons.map((lesson) => lesson.created_at)].filter(
    (at): at is number => at !== null,
  )
  return {
    ...course,
    pendingSince: since.length > 0 ? Math.min(...since) : null,
    sections: course.sections.map((section) => ({
      ...section,
      lessons: section.lessons.map((lesson) => {
        const pending = byId.get(lesson.id)
        const form = pending && lessonForm.safeParse(JSON.parse(pending.fields))
        return form?.success ? { ...lesson, ...form.data } : lesson
      }),
    })),
  }
}
