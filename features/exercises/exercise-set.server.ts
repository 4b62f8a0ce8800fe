import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { exercisesPath } from '#features/content-kinds.ts'
import {
  type MarkdownRenderer,
  type MarkdownText,
  renderedHtml,
} from '#features/markdown/stored-html.server.ts'
import { exerciseLocked, premiumReader } from '#features/plans/plan.server.ts'
import { readableItem } from '#features/readable-item.server.ts'
import { STUDY } from '#features/studies/editable-study.server.ts'
import { tagsOfItems } from '#features/tags/item-tags.server.ts'
import type {
  ExerciseSet,
  LearnerContent,
  LearnerQuestion,
  QuestionStatus,
} from './question-views.ts'
import { bodyOf, type QuestionBody, questionsOfStudies } from './questions.server.ts'

// The learner's side of an exercise set. What leaves here is built field by field from what a
// learner may see (features/exercises/question-views.ts): never the correct flags, accepted
// answers, pattern, reference solution or hidden tests.

/** A learner's status from their progress row (none: not started). */
export function statusOf(progress: { solved_at: number | null } | undefined): QuestionStatus {
  if (!progress) return 'not_started'
  return progress.solved_at === null ? 'attempted' : 'solved'
}

/** The part of a question's kind-specific data a learner is shown. */
export function learnerContentOf(body: QuestionBody): LearnerContent {
  switch (body.kind) {
    case 'single':
    case 'multiple':
      return {
        kind: body.kind,
        options: body.options.map((option) => ({ id: option.id, text: option.text })),
      }
    case 'text':
      return { kind: 'text' }
    case 'code':
      return {
        kind: 'code',
        language: body.language,
        starterCode: body.starterCode,
        timeLimitMs: body.timeLimitMs,
        visibleTests: body.tests
          .filter((test) => !test.hidden)
          .map((test) => ({
            name: test.name,
            stdin: test.stdin,
            expectedOutput: test.expectedOutput,
          })),
        hiddenTestCount: body.tests.filter((test) => test.hidden).length,
      }
  }
}

/** One learner's progress rows of some questions, by question id. */
export async function progressOf(
  db: Kysely<DB>,
  userId: string | undefined,
  questionIds: readonly string[],
): Promise<Map<string, { solved_at: number | null; attempts: number }>> {
  if (!userId || questionIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('question_progress')
    .select(['question_id', 'solved_at', 'attempts'])
    .where('user_id', '=', userId)
    .where('question_id', 'in', questionIds)
    .execute()
  return new Map(
    rows.map((row) => [
      row.question_id,
      { solved_at: row.solved_at === null ? null : Number(row.solved_at), attempts: row.attempts },
    ]),
  )
}

/**
 * A study's exercise set as `viewer` (undefined for a guest) sees it, with their status per
 * question and "n / m solved". A draft study's set exists only for its owner and admins.
 * Premium questions are locked by the plan rule (exerciseLocked): no prompt, no content.
 */
export async function readExerciseSet(
  db: Kysely<DB>,
  markdown: MarkdownRenderer,
  address: { username: string; studyId: string },
  viewer: Actor | undefined,
): Promise<ExerciseSet> {
  const {
    row: study,
    author,
    canEdit,
  } = await readableItem(
    db,
    'studies',
    { username: address.username, id: address.studyId },
    viewer,
    STUDY.notFound,
  )
  const rows = await questionsOfStudies(db, [study.id])
  const ids = rows.map((row) => row.id)
  const [reader, tags, progress] = await Promise.all([
    premiumReader(db, viewer),
    tagsOfItems(db, 'question_tags', ids),
    progressOf(db, viewer?.userId, ids),
  ])
  const visible = rows.map((row) => ({
    row,
    locked: exerciseLocked(reader, { access: row.access, ownerId: study.owner_id }),
    status: statusOf(progress.get(row.id)),
  }))
  // Prompts of the questions the viewer may read, and explanations of those they answered.
  const texts: MarkdownText[] = []
  for (const { row, locked, status } of visible) {
    if (locked) continue
    texts.push({ kind: 'question_prompt', id: row.id, source: row.prompt })
    if (status !== 'not_started') {
      texts.push({ kind: 'question_explanation', id: row.id, source: row.explanation })
    }
  }
  const html = await renderedHtml(db, markdown, texts)
  const htmlOf = new Map(texts.map((text, index) => [`${text.kind}:${text.id}`, html[index] ?? '']))

  const questions = visible.map(
    ({ row, locked, status }): LearnerQuestion => ({
      id: row.id,
      position: row.position,
      kind: row.kind,
      language: row.language,
      difficulty: row.difficulty,
      access: row.access,
      tags: tags.get(row.id) ?? [],
      revision: row.revision,
      locked,
      promptHtml: locked ? null : (htmlOf.get(`question_prompt:${row.id}`) ?? ''),
      content: locked ? null : learnerContentOf(bodyOf(row)),
      status,
      explanationHtml: htmlOf.get(`question_explanation:${row.id}`) ?? null,
    }),
  )
  return {
    study: {
      id: study.id,
      title: study.title,
      path: exercisesPath(author.username, study.id),
      author,
      status: study.status,
      canEdit,
    },
    questions,
    solved: questions.filter((question) => question.status === 'solved').length,
    total: questions.length,
  }
}

/**
 * "n / m solved" of some studies for one learner (the study page, cards): every study named
 * gets an entry, 0 / 0 when it has no questions. Two grouped queries whatever the count.
 */
export async function exerciseProgressOfStudies(
  db: Kysely<DB>,
  userId: string | undefined,
  studyIds: readonly string[],
): Promise<Map<string, { solved: number; total: number }>> {
  const result = new Map(studyIds.map((id) => [id, { solved: 0, total: 0 }]))
  if (studyIds.length === 0) return result
  const totals = await db
    .selectFrom('questions')
    .select(({ fn }) => ['study_id', fn.countAll<number>().as('total')])
    .where('study_id', 'in', studyIds)
    .groupBy('study_id')
    .execute()
  for (const row of totals) {
    const entry = result.get(row.study_id)
    if (entry) entry.total = Number(row.total)
  }
  if (!userId) return result
  const solved = await db
    .selectFrom('question_progress')
    .select(({ fn }) => ['study_id', fn.countAll<number>().as('solved')])
    .where('user_id', '=', userId)
    .where('study_id', 'in', studyIds)
    .where('solved_at', 'is not', null)
    .groupBy('study_id')
    .execute()
  for (const row of solved) {
    const entry = result.get(row.study_id)
    if (entry) entry.solved = Number(row.solved)
  }
  return result
}
