import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import { type CodeVerifier, referenceTestReports, runAllTests } from './answers.server.ts'
import type { ReferenceFailure, ReferenceTestReport } from './question-views.ts'
import { bodyOf, questionsOfStudies, readQuestionForEditor } from './questions.server.ts'

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
    const body = bodyOf(row)
    if (body.kind !== 'code') continue
    const { passed, outcomes } = await runAllTests(
      verifier,
      row,
      body,
      body.referenceSolution,
      author,
    )
    checked.set(row.id, row.revision)
    if (!passed) {
      failures.push({
        questionId: row.id,
        position: row.position,
        message: failureMessage(row.position, referenceTestReports(body, outcomes)),
      })
    }
  }
  return { failures, checked }
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
