import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import { type CodeVerifier, referenceTestReports, runAllTests } from './answers.server.ts'
import { questionBody } from './question-input.ts'
import type { ReferenceFailure, ReferenceTestReport } from './question-views.ts'
import {
  bodyOf,
  type QuestionBody,
  questionsOfStudies,
  readQuestionForEditor,
} from './questions.server.ts'

// A code question's reference solution must pass its own tests: the author
// can run it from the editor, and publishing a study refuses while one fails.

/** What failed, in Japanese, from the first failing test's report. */
function failureMessage(position: number, reports: readonly ReferenceTestReport[]): string {
  const failed = reports.find((report) => !report.passed)
  const why =
    failed?.message ??
    failed?.error?.message ??
    (failed?.outcome === 'completed' ? '出力が期待と違います' : '実行できませんでした')
  return `問題 ${position + 1} の模範解答がテスト「${failed?.name ?? ''}」に合格しません（${why}）`
}

/**
 * Runs every code question's reference solution of a study against all its tests on the
 * server's verifier, as runs of `author` (who publishes). Answers the failures (none:
 * publishable) and the revision of each question checked, so that the publish can refuse a
 * question changed while it ran.
 */
export async function referenceFailures(
  db: Kysely<DB>,
  verifier: CodeVerifier,
  studyId: string,
  author: string,
): Promise<{ failures: ReferenceFailure[]; checked: Map<string, number> }> {
  const rows = await questionsOfStudies(db, [studyId])
  const failures: ReferenceFailure[] = []
  const checked = new Map<string, number>()
  for (const row of rows) {
    if (row.kind !== 'code') continue
    const failure = await referenceFailure(verifier, row, bodyOf(row), author)
    checked.set(row.id, row.revision)
    if (failure) failures.push(failure)
  }
  return { failures, checked }
}

/**
 * The same check of a published study's pending question edits, before 「更新する」 makes them
 * what learners are graded against: each pending code question's tests, time limit and
 * reference solution as they wait.
 */
export async function pendingReferenceFailures(
  db: Kysely<DB>,
  verifier: CodeVerifier,
  pending: readonly { subject_id: string; fields: string }[],
  author: string,
): Promise<ReferenceFailure[]> {
  if (pending.length === 0) return []
  const rows = await db
    .selectFrom('questions')
    .select(['id', 'revision', 'position'])
    .where(
      'id',
      'in',
      pending.map((part) => part.subject_id),
    )
    .execute()
  const byId = new Map(rows.map((row) => [row.id, row]))
  const failures: ReferenceFailure[] = []
  for (const part of pending) {
    const row = byId.get(part.subject_id)
    // A body that no longer reads is refused by 「更新する」's own parse.
    const body = questionBody.safeParse(JSON.parse(part.fields))
    if (!row || !body.success) continue
    const failure = await referenceFailure(verifier, row, body.data, author)
    if (failure) failures.push(failure)
  }
  return failures.sort((a, b) => a.position - b.position)
}

/** Runs one question's reference solution against all its tests: its failure, if it fails. */
async function referenceFailure(
  verifier: CodeVerifier,
  row: { id: string; revision: number; position: number },
  body: QuestionBody,
  author: string,
): Promise<ReferenceFailure | undefined> {
  if (body.kind !== 'code') return undefined
  const { passed, outcomes } = await runAllTests(
    verifier,
    row,
    body,
    body.referenceSolution,
    author,
  )
  if (passed) return undefined
  return {
    questionId: row.id,
    position: row.position,
    message: failureMessage(row.position, referenceTestReports(body, outcomes)),
  }
}

/** The refusal of a publish while reference solutions fail, each question named. */
export function referenceRefusal(failures: readonly ReferenceFailure[]): ContentError {
  const fields = Object.fromEntries(
    failures.map((failure) => [`questions.${failure.questionId}`, [failure.message]]),
  )
  return new ContentError(
    'CONFLICT',
    `模範解答がテストに合格しない問題があるため公開できません。${failures.map((failure) => failure.message).join('。')}`,
    fields,
  )
}

/**
 * The editor's 「模範解答をテスト」: runs one code question's reference solution against all
 * its tests (hidden ones included, shown in full to their author), on the author's own share
 * of the sandbox like any learner's runs.
 */
export async function runReferenceSolution(
  db: Kysely<DB>,
  verifier: CodeVerifier,
  actor: Actor | undefined,
  questionId: string,
): Promise<{ passed: boolean; tests: ReferenceTestReport[] }> {
  const question = await readQuestionForEditor(db, actor, questionId)
  if (!actor) throw ContentError.signInRequired()
  const { content } = question
  if (content.kind !== 'code') {
    throw new ContentError('CONFLICT', 'コードの問題ではありません')
  }
  const { passed, outcomes } = await runAllTests(
    verifier,
    question,
    content,
    content.referenceSolution,
    actor.userId,
  )
  return { passed, tests: referenceTestReports(content, outcomes) }
}
