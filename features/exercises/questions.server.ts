import type { Kysely, Selectable } from 'kysely'
import type { z } from 'zod'
import { newContentId } from '#db/ids.ts'
import type { DB, QuestionsTable } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import { editableItem } from '#features/editable-item.server.ts'
import {
  dropPendingRevision,
  holdPendingRevision,
  type PendingDependents,
  pendingRow,
} from '#features/pending-revisions.server.ts'
import { STUDY } from '#features/studies/editable-study.server.ts'
import { replaceItemTags, tagsOfItems } from '#features/tags/item-tags.server.ts'
import { patternProblem } from './grading.server.ts'
import {
  MAX_QUESTIONS_PER_STUDY,
  type QuestionFields,
  questionBody,
  questionFields,
  questionOrder,
  questionUpdate,
} from './question-input.ts'
import type { AuthorExerciseSet, AuthorQuestion } from './question-views.ts'

// Authoring a study's exercise set (docs/decisions/031): only the study's owner (or an admin)
// writes its questions. Each question has its own revision, checked like every editor's
// (decision 013); adding, deleting and reordering are checked against the study's current
// questions instead, so that the study's own editor and the exercise editor never conflict.

export type QuestionRow = Selectable<QuestionsTable>
export type QuestionBody = z.output<typeof questionBody>

const QUESTION_NOT_FOUND = '問題が見つかりません'

/** The kind-specific part of a stored question, checked again on the way out. */
export function bodyOf(row: Pick<QuestionRow, 'body'>): QuestionBody {
  return questionBody.parse(JSON.parse(row.body))
}

function columnsOf(fields: QuestionFields) {
  const { prompt, explanation, difficulty, access, tags: _tags, ...body } = fields
  return {
    kind: body.kind,
    language: body.kind === 'code' ? body.language : null,
    prompt,
    explanation,
    difficulty,
    access,
    body: JSON.stringify(body),
  }
}

/** What only the server checks of a question the schema accepted: the pattern compiles in RE2. */
function checkPattern(fields: QuestionFields): void {
  if (fields.kind === 'text' && fields.pattern !== null) {
    const problem = patternProblem(fields.pattern)
    if (problem) throw ContentError.validation([{ path: ['pattern'], message: problem }])
  }
}

/** The question and its study, once the actor is known to be allowed to edit the study. */
async function editableQuestion(
  db: Kysely<DB>,
  actor: Actor | undefined,
  questionId: string,
): Promise<QuestionRow> {
  if (!actor) throw ContentError.signInRequired()
  const question = await db
    .selectFrom('questions')
    .selectAll()
    .where('id', '=', questionId)
    .executeTakeFirst()
  if (!question) throw ContentError.notFound(QUESTION_NOT_FOUND)
  // The study's checks: someone else's draft study is "not found", a published one "forbidden".
  await editableItem(db, STUDY, actor, question.study_id)
  return question
}

/** Editing a question counts as editing its study (/drafts sorts by the last change). */
async function touchStudy(db: Kysely<DB>, studyId: string, now: number): Promise<void> {
  await db.updateTable('studies').set({ updated_at: now }).where('id', '=', studyId).execute()
}

/**
 * Writes a checked question (inside the caller's transaction): its row and its tags. Used by
 * `createQuestion` and by the demo seed, which checks with the same schema.
 */
export async function insertQuestion(
  trx: Kysely<DB>,
  question: { id: string; studyId: string; position: number; fields: QuestionFields },
  now: number,
): Promise<void> {
  checkPattern(question.fields)
  await trx
    .insertInto('questions')
    .values({
      id: question.id,
      study_id: question.studyId,
      position: question.position,
      ...columnsOf(question.fields),
      created_at: now,
      updated_at: now,
    })
    .execute()
  await replaceItemTags(trx, 'question_tags', question.id, question.fields.tags, now)
}

/** Adds a question at the end of the study's exercise set. */
export async function createQuestion(
  db: Kysely<DB>,
  actor: Actor | undefined,
  studyId: string,
  input: z.input<typeof questionFields>,
  now = Date.now(),
): Promise<{ id: string; revision: number; position: number }> {
  const fields = parseInput(questionFields, input)
  checkPattern(fields)
  const id = newContentId()
  return db.transaction().execute(async (trx) => {
    await editableItem(trx, STUDY, actor, studyId)
    const { count, last } = await trx
      .selectFrom('questions')
      .select(({ fn }) => [fn.countAll<number>().as('count'), fn.max('position').as('last')])
      .where('study_id', '=', studyId)
      .executeTakeFirstOrThrow()
    if (Number(count) >= MAX_QUESTIONS_PER_STUDY) {
      throw new ContentError(
        'CONFLICT',
        `問題は 1 つのスタディに ${MAX_QUESTIONS_PER_STUDY} 問までです`,
      )
    }
    const position = last === null ? 0 : Number(last) + 1
    await insertQuestion(trx, { id, studyId, position, fields }, now)
    await touchStudy(trx, studyId, now)
    return { id, revision: 1, position }
  })
}

/** Saves a question (the editor's form, autosaved); refused when based on a stale revision. */
export async function updateQuestion(
  db: Kysely<DB>,
  actor: Actor | undefined,
  questionId: string,
  input: z.input<typeof questionUpdate>,
  now = Date.now(),
): Promise<{ revision: number }> {
  const fields = parseInput(questionUpdate, input)
  checkPattern(fields)
  return db.transaction().execute(async (trx) => {
    const question = await editableQuestion(trx, actor, questionId)
    if (question.revision !== fields.revision) throw ContentError.stale()
    const study = await trx
      .selectFrom('studies')
      .select(['status', 'owner_id'])
      .where('id', '=', question.study_id)
      .executeTakeFirstOrThrow()
    // A published study's question keeps what learners answer until the study's 「更新する」.
    const held = study.status === 'published'
    const saved = await trx
      .updateTable('questions')
      .set((eb) => ({
        ...(held ? {} : columnsOf(fields)),
        revision: eb('revision', '+', 1),
        updated_at: now,
      }))
      .where('id', '=', questionId)
      .where('revision', '=', fields.revision)
      .executeTakeFirst()
    if (Number(saved.numUpdatedRows) !== 1) throw ContentError.stale()
    if (held) {
      const { revision: _, ...form } = input as Record<string, unknown>
      await holdPendingRevision(trx, 'question', questionId, study.owner_id, form, now)
    } else {
      await replaceItemTags(trx, 'question_tags', questionId, fields.tags, now)
      await dropPendingRevision(trx, 'question', questionId)
    }
    await touchStudy(trx, question.study_id, now)
    return { revision: fields.revision + 1 }
  })
}

/** A study's questions as parts of its pending revision: they go live with its 「更新する」. */
export const PENDING_QUESTIONS: PendingDependents = {
  kind: 'question',
  of: async (db, studyId) =>
    (await db.selectFrom('questions').select('id').where('study_id', '=', studyId).execute()).map(
      (row) => row.id,
    ),
  apply: async (trx, questionId, form, now) => {
    const fields = parseInput(questionFields, form)
    checkPattern(fields)
    await trx
      .updateTable('questions')
      .set({ ...columnsOf(fields), updated_at: now })
      .where('id', '=', questionId)
      .execute()
    await replaceItemTags(trx, 'question_tags', questionId, fields.tags, now)
  },
}

/** Deletes a question with its attempts and learners' status (they cascade); the rest close up. */
export async function deleteQuestion(
  db: Kysely<DB>,
  actor: Actor | undefined,
  questionId: string,
  now = Date.now(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const question = await editableQuestion(trx, actor, questionId)
    await trx.deleteFrom('questions').where('id', '=', questionId).execute()
    await dropPendingRevision(trx, 'question', questionId)
    await trx
      .updateTable('questions')
      .set((eb) => ({ position: eb('position', '-', 1) }))
      .where('study_id', '=', question.study_id)
      .where('position', '>', question.position)
      .execute()
    await touchStudy(trx, question.study_id, now)
  })
}

/**
 * Puts the study's questions in the order given. The list must name every question of the
 * study exactly once: one made from a stale page (a question added or deleted meanwhile) is
 * refused rather than half applied.
 */
export async function reorderQuestions(
  db: Kysely<DB>,
  actor: Actor | undefined,
  studyId: string,
  input: z.input<typeof questionOrder>,
  now = Date.now(),
): Promise<void> {
  const { questionIds } = parseInput(questionOrder, input)
  await db.transaction().execute(async (trx) => {
    await editableItem(trx, STUDY, actor, studyId)
    const current = await trx
      .selectFrom('questions')
      .select('id')
      .where('study_id', '=', studyId)
      .execute()
    const known = new Set(current.map((row) => row.id))
    if (
      new Set(questionIds).size !== questionIds.length ||
      questionIds.length !== known.size ||
      questionIds.some((id) => !known.has(id))
    ) {
      throw ContentError.stale()
    }
    for (const [position, id] of questionIds.entries()) {
      await trx.updateTable('questions').set({ position }).where('id', '=', id).execute()
    }
    await touchStudy(trx, studyId, now)
  })
}

/** A stored question as its author edits it. */
export function authorQuestionOf(row: QuestionRow, tags: readonly string[]): AuthorQuestion {
  return {
    id: row.id,
    position: row.position,
    revision: row.revision,
    prompt: row.prompt,
    explanation: row.explanation,
    difficulty: row.difficulty,
    access: row.access,
    tags: [...tags],
    content: bodyOf(row),
  }
}

/** The questions of some studies in each study's order (ids of studies the caller may read). */
export async function questionsOfStudies(
  db: Kysely<DB>,
  studyIds: readonly string[],
): Promise<QuestionRow[]> {
  if (studyIds.length === 0) return []
  return db
    .selectFrom('questions')
    .selectAll()
    .where('study_id', 'in', studyIds)
    .orderBy('study_id')
    .orderBy('position')
    .execute()
}

/** The exercise editor's view of a study; only for its owner or an admin. */
export async function readExerciseSetForEditor(
  db: Kysely<DB>,
  actor: Actor | undefined,
  studyId: string,
): Promise<AuthorExerciseSet> {
  const study = await editableItem(db, STUDY, actor, studyId)
  const rows = await questionsOfStudies(db, [study.id])
  const tags = await tagsOfItems(
    db,
    'question_tags',
    rows.map((row) => row.id),
  )
  return {
    study: { id: study.id, title: study.title, status: study.status, revision: study.revision },
    questions: rows.map((row) => authorQuestionOf(row, tags.get(row.id) ?? [])),
  }
}

/** One question as its editor opens it, with its study's id. */
export async function readQuestionForEditor(
  db: Kysely<DB>,
  actor: Actor | undefined,
  questionId: string,
): Promise<AuthorQuestion & { studyId: string }> {
  const row = await editableQuestion(db, actor, questionId)
  const tags = await tagsOfItems(db, 'question_tags', [row.id])
  const question = { ...authorQuestionOf(row, tags.get(row.id) ?? []), studyId: row.study_id }
  // The author edits the pending text of a published study's question.
  const pending = await pendingRow(db, 'question', questionId)
  const form = pending && questionFields.safeParse(JSON.parse(pending.fields))
  if (!form?.success) return question
  const shown = authorQuestionOf({ ...row, ...columnsOf(form.data) }, form.data.tags)
  return { ...shown, studyId: row.study_id }
}
