import { createHash } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { z } from 'zod'
import { newContentId } from '#db/ids.ts'
import type { DB } from '#db/schema.ts'
import { type Actor, mayEdit } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import { recordHistoryEvent } from '#features/history/history-events.server.ts'
import { type MarkdownRenderer, renderedHtmlOf } from '#features/markdown/stored-html.server.ts'
import { exerciseLocked, premiumReader } from '#features/plans/plan.server.ts'
import type { RateLimiter } from '#server/rate-limiter.ts'
import {
  allPassed,
  type CodeLanguage,
  type CodeTest,
  hiddenTimeoutMessage,
  OUTPUT_LIMIT_MESSAGE,
  type TestOutcome,
  timeoutMessage,
} from './code-run.ts'
import { statusOf } from './exercise-set.server.ts'
import { type Grade, gradeMultiple, gradeSingle, gradeText } from './grading.server.ts'
import { type AnswerInput, answerInput, attemptsQuery } from './question-input.ts'
import type {
  AnswerFeedback,
  AnswerResult,
  AttemptView,
  ReferenceTestReport,
  TestReport,
} from './question-views.ts'
import { bodyOf, type QuestionBody } from './questions.server.ts'

// Answering (docs/decisions/031). The server grades every answer itself: choice and text
// against the stored question, code by running it again against ALL the question's tests with
// the server's own CodeRunner (server/code-sandbox). A request carries only the answer, never
// a verdict, so no request can claim "solved". Attempts keep the answer as sent.

const MINUTE_MS = 60_000

/** Per-learner limits of answers (decision 031): counts per minute, on the shared RateLimiter. */
export type AnswerLimits = {
  limiter: RateLimiter
  answersPerMinute: number
  codeSubmissionsPerMinute: number
}

/**
 * The server's judge of programs (server/code-sandbox's CodeSandbox is one): runs a program
 * against a question's tests in its sandbox, and may reuse the verdict of the same code for
 * the same question revision (`questionKey`). `learner` is whose share of the sandbox the runs
 * take (a user's id, a guest's client address): every run for a person names them, an
 * author's check of their own draft included (docs/decisions/045).
 */
export type CodeVerifier = {
  verify(
    questionKey: string,
    request: { language: CodeLanguage; code: string; timeLimitMs: number },
    tests: readonly CodeTest[],
    options: { learner: string },
  ): Promise<{ outcomes: TestOutcome[]; passed: boolean }>
}

/** What answering needs of the server besides the database: its verifier and its limits. */
export type ExerciseServices = {
  /** Runs learners' programs in the server's sandbox (QuickJS / Pyodide off the main thread). */
  verifier: CodeVerifier
  limits: AnswerLimits
  warn?: (details: object, message: string) => void
}

/** What answering reads of a question (see answerableQuestion). */
type AnswerableQuestion = Awaited<ReturnType<typeof answerableQuestion>>

/** A question together with what answering it needs of its study. */
async function answerableQuestion(db: Kysely<DB>, actor: Actor, questionId: string) {
  const question = await db
    .selectFrom('questions')
    .innerJoin('studies', 'studies.id', 'questions.study_id')
    .selectAll('questions')
    .select(['studies.owner_id', 'studies.status as study_status', 'studies.hidden_at'])
    .where('questions.id', '=', questionId)
    .executeTakeFirst()
  // A draft (or hidden) study's questions exist only for its owner (and admins), who may try them.
  const shown = question?.study_status === 'published' && question.hidden_at === null
  if (!question || (!shown && !mayEdit(actor, question.owner_id))) {
    throw ContentError.notFound('問題が見つかりません')
  }
  const reader = await premiumReader(db, actor)
  if (exerciseLocked(reader, { access: question.access, ownerId: question.owner_id })) {
    throw new ContentError('LOCKED', 'この問題はプレミアムプランで解くことができます')
  }
  return question
}

/** Counts this answer against the learner's limits; a limiter that fails lets it through. */
async function checkLimits(
  services: ExerciseServices,
  userId: string,
  kind: AnswerInput['kind'],
): Promise<void> {
  const { limits } = services
  try {
    const answers = await limits.limiter.hit(`exercise-answers:${userId}`, MINUTE_MS)
    const code =
      kind === 'code' ? await limits.limiter.hit(`exercise-code:${userId}`, MINUTE_MS) : 0
    if (answers > limits.answersPerMinute || code > limits.codeSubmissionsPerMinute) {
      throw new ContentError(
        'RATE_LIMITED',
        '短い時間に解答が多すぎます。1 分ほど待ってからもう一度送ってください',
      )
    }
  } catch (error) {
    if (error instanceof ContentError) throw error
    services.warn?.({ err: error }, 'exercise limiter unavailable; answer not limited')
  }
}

type CodeBody = Extract<QuestionBody, { kind: 'code' }>

const NOT_RUN_MESSAGE = '前のテストが制限時間を超えたため実行していません'

/** One test's report, in full: a visible test's, or any test's for its author. */
function fullReport(
  test: CodeBody['tests'][number],
  outcome: TestOutcome | undefined,
  timeLimitMs: number,
) {
  if (!outcome) {
    return {
      name: test.name,
      passed: false,
      outcome: 'skipped' as const,
      stdout: null,
      stderr: null,
      error: null,
      message: NOT_RUN_MESSAGE,
      durationMs: 0,
    }
  }
  const { run } = outcome
  return {
    name: test.name,
    passed: outcome.passed,
    outcome: run.outcome === 'unavailable' ? ('error' as const) : run.outcome,
    stdout: run.stdout,
    stderr: run.stderr,
    error: run.outcome === 'error' ? run.error : null,
    message:
      run.outcome === 'timeout'
        ? timeoutMessage(timeLimitMs)
        : run.outcome === 'output-limit'
          ? OUTPUT_LIMIT_MESSAGE
          : null,
    durationMs: run.durationMs,
  }
}

/**
 * A learner's feedback on a code submission (decision 046): each visible test in full, and of
 * the hidden tests only how many passed, or, when a time limit stopped the run before they all
 * ran, a sentence saying so without any count. `outcomes` are aligned with `body.tests`
 * (undefined: not run).
 */
export function codeFeedback(
  body: CodeBody,
  outcomes: readonly (TestOutcome | undefined)[],
): Extract<AnswerFeedback, { kind: 'code' }> {
  const tests: TestReport[] = []
  let total = 0
  let passed = 0
  let notRun = false
  let timedOut = false
  body.tests.forEach((test, index) => {
    const outcome = outcomes[index]
    if (!test.hidden) {
      const { durationMs: _, ...report } = fullReport(test, outcome, body.timeLimitMs)
      tests.push(report)
      return
    }
    total += 1
    if (!outcome) notRun = true
    else if (outcome.passed) passed += 1
    else if (outcome.run.outcome === 'timeout') timedOut = true
  })
  const stopped = notRun || timedOut
  return {
    kind: 'code',
    tests,
    hiddenTests: {
      total,
      passed: stopped ? null : passed,
      allPassed: !stopped && passed === total,
      message: !stopped
        ? null
        : timedOut
          ? hiddenTimeoutMessage(body.timeLimitMs)
          : '例のテストが制限時間を超えたため、非公開テストは実行していません。',
    },
  }
}

/** Every test's report in full, hidden ones included: for the author's own reference check. */
export function referenceTestReports(
  body: CodeBody,
  outcomes: readonly (TestOutcome | undefined)[],
): ReferenceTestReport[] {
  return body.tests.map((test, index) => ({
    ...fullReport(test, outcomes[index], body.timeLimitMs),
    hidden: test.hidden,
  }))
}

/**
 * Runs a program against every test of a code question on the server's runner, stopping after
 * a timeout, as `learner`'s runs. Visible tests run first: a stop in a hidden test then leaves
 * no visible test unrun, whose place would tell where the looping hidden test stands. A runner
 * that cannot run (not the program's fault) gives no verdict at all; one that refused this
 * learner past their share says when to come back. The outcomes come back aligned with
 * `body.tests` (undefined: not run).
 */
export async function runAllTests(
  verifier: CodeVerifier,
  question: { id: string; revision: number },
  body: CodeBody,
  code: string,
  learner: string,
): Promise<{ passed: boolean; outcomes: (TestOutcome | undefined)[] }> {
  const order = body.tests
    .map((test, index) => ({ test, index }))
    .sort((a, b) => Number(a.test.hidden) - Number(b.test.hidden))
  const ordered = order.map(({ test }) => test)
  // A question's revision moves on every save, but a published question's row keeps its tests
  // while its edit waits (and after 「更新する」 the revision stays): the tests themselves name
  // the verdict, so a verdict on one set of tests is never reused for another.
  const testsDigest = createHash('sha256')
    .update(JSON.stringify([body.timeLimitMs, body.tests]))
    .digest('hex')
  const { outcomes } = await verifier.verify(
    `${question.id}:${question.revision}:${testsDigest}`,
    { language: body.language, code, timeLimitMs: body.timeLimitMs },
    ordered,
    { learner },
  )
  for (const { run } of outcomes) {
    if (run.outcome === 'unavailable' && run.retryAfterMs !== undefined) {
      throw ContentError.busy(run.retryAfterMs)
    }
  }
  if (outcomes.some((outcome) => outcome.run.outcome === 'unavailable')) {
    throw new ContentError(
      'UNAVAILABLE',
      'いまはコードを確かめられません。しばらく待ってからもう一度お試しください',
    )
  }
  const aligned: (TestOutcome | undefined)[] = body.tests.map(() => undefined)
  order.forEach(({ index }, at) => {
    aligned[index] = outcomes[at]
  })
  return { passed: allPassed(outcomes, ordered), outcomes: aligned }
}

async function gradeCode(
  verifier: CodeVerifier,
  question: { id: string; revision: number },
  body: CodeBody,
  code: string,
  learner: string,
): Promise<Grade> {
  const { passed, outcomes } = await runAllTests(verifier, question, body, code, learner)
  return { correct: passed, feedback: codeFeedback(body, outcomes) }
}

export function messageOf(grade: Grade): string {
  if (grade.correct) return '正解です！'
  const { feedback } = grade
  switch (feedback.kind) {
    case 'single':
      return '不正解です。もう一度考えてみましょう'
    case 'multiple': {
      const parts: string[] = []
      if (feedback.wrongOptionIds.length > 0) {
        parts.push(`選んだ選択肢のうち ${feedback.wrongOptionIds.length} 個は正しくありません`)
      }
      if (feedback.missingCorrect > 0) {
        parts.push(`正しい選択肢があと ${feedback.missingCorrect} 個あります`)
      }
      return `不正解です。${parts.join('。')}`
    }
    case 'text':
      return '不正解です。表記を確かめてもう一度答えてみましょう'
    case 'code': {
      const visible = feedback.tests.filter((test) => test.passed).length
      const { hiddenTests } = feedback
      if (hiddenTests.passed === null) {
        const examples =
          feedback.tests.length > 0
            ? `例 ${feedback.tests.length} 件中 ${visible} 件に合格しました。`
            : ''
        return `不正解です。${examples}${hiddenTests.message ?? ''}`
      }
      const total = feedback.tests.length + hiddenTests.total
      return `不正解です。${total} 件中 ${visible + hiddenTests.passed} 件のテストに合格しました`
    }
  }
}

/**
 * Grades one answer of the signed-in learner and stores it: the attempt (answer as sent,
 * verdict, the question's revision), their status, and on their first correct answer a
 * history event. Retry at will; a correct answer after a wrong one solves the question.
 */
export async function answerQuestion(
  db: Kysely<DB>,
  services: ExerciseServices & { markdown: MarkdownRenderer },
  actor: Actor | undefined,
  questionId: string,
  input: z.input<typeof answerInput>,
  now = Date.now(),
): Promise<AnswerResult> {
  if (!actor) throw ContentError.signInRequired()
  const answer = parseInput(answerInput, input)
  const question = await answerableQuestion(db, actor, questionId)
  if (answer.kind !== question.kind) {
    throw ContentError.validation([
      { path: ['kind'], message: 'この問題の形式に合う答えを送ってください' },
    ])
  }
  await checkLimits(services, actor.userId, answer.kind)

  // Outside any transaction: a code answer runs up to the time limit.
  const grade = await gradeAnswer(services.verifier, question, answer, actor.userId)

  const verdict = grade.correct ? 'correct' : 'incorrect'
  const attemptId = newContentId()
  const { firstSolve, solvedAt } = await db
    .transaction()
    .execute((trx) =>
      recordAttempt(
        trx,
        actor.userId,
        question,
        { id: attemptId, answer, verdict, correct: grade.correct },
        now,
      ),
    )

  const explanationHtml = await renderedHtmlOf(db, services.markdown, {
    kind: 'question_explanation',
    id: question.id,
    source: question.explanation,
  })
  return {
    attemptId,
    verdict,
    message: messageOf(grade),
    feedback: grade.feedback,
    status: statusOf({ solved_at: solvedAt === null ? null : Number(solvedAt) }),
    firstSolve,
    explanationHtml,
  }
}

/** The grade of an answer of the question's own kind. */
async function gradeAnswer(
  verifier: CodeVerifier,
  question: AnswerableQuestion,
  answer: AnswerInput,
  learner: string,
): Promise<Grade> {
  const body = bodyOf(question)
  if (answer.kind === 'single' && body.kind === 'single') {
    return gradeSingle(body.options, answer.optionId)
  }
  if (answer.kind === 'multiple' && body.kind === 'multiple') {
    return gradeMultiple(body.options, answer.optionIds)
  }
  if (answer.kind === 'text' && body.kind === 'text') return gradeText(body, answer.text)
  if (answer.kind === 'code' && body.kind === 'code') {
    return gradeCode(verifier, question, body, answer.code, learner)
  }
  throw new Error(`question ${question.id} is stored as ${question.kind} but holds ${body.kind}`)
}

/**
 * Stores the attempt and the learner's progress; on their first correct answer, the solve and its
 * history event. Answers whether this attempt solved it first, and when it was solved.
 */
async function recordAttempt(
  trx: Transaction<DB>,
  userId: string,
  question: AnswerableQuestion,
  attempt: { id: string; answer: AnswerInput; verdict: 'correct' | 'incorrect'; correct: boolean },
  now: number,
) {
  await trx
    .insertInto('question_attempts')
    .values({
      id: attempt.id,
      user_id: userId,
      question_id: question.id,
      question_revision: question.revision,
      answer: JSON.stringify(attempt.answer),
      verdict: attempt.verdict,
      created_at: now,
    })
    .execute()
  await trx
    .insertInto('question_progress')
    .values({
      user_id: userId,
      question_id: question.id,
      study_id: question.study_id,
      attempts: 1,
      solved_at: null,
      last_attempt_at: now,
    })
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'question_id']).doUpdateSet((eb) => ({
        attempts: eb('question_progress.attempts', '+', 1),
        last_attempt_at: now,
      })),
    )
    .execute()
  let first = false
  if (attempt.correct) {
    // Guarded: of two correct answers racing, one alone finds it unsolved.
    const solved = await trx
      .updateTable('question_progress')
      .set({ solved_at: now })
      .where('user_id', '=', userId)
      .where('question_id', '=', question.id)
      .where('solved_at', 'is', null)
      .executeTakeFirst()
    first = Number(solved.numUpdatedRows) === 1
    if (first) {
      await recordHistoryEvent(trx, {
        userId: userId,
        kind: 'exercise_solved',
        subjectKind: 'question',
        subjectId: question.id,
        at: now,
      })
    }
  }
  const progress = await trx
    .selectFrom('question_progress')
    .select('solved_at')
    .where('user_id', '=', userId)
    .where('question_id', '=', question.id)
    .executeTakeFirst()
  return { firstSolve: first, solvedAt: progress?.solved_at ?? null }
}

/** The signed-in learner's own attempts of one question, newest first. */
export async function listMyAttempts(
  db: Kysely<DB>,
  actor: Actor | undefined,
  questionId: string,
  input: z.input<typeof attemptsQuery> = {},
): Promise<AttemptView[]> {
  if (!actor) throw ContentError.signInRequired()
  const { limit } = parseInput(attemptsQuery, input)
  const rows = await db
    .selectFrom('question_attempts')
    .select(['id', 'question_id', 'question_revision', 'verdict', 'answer', 'created_at'])
    .where('user_id', '=', actor.userId)
    .where('question_id', '=', questionId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
  return rows.map((row) => ({
    id: row.id,
    questionId: row.question_id,
    questionRevision: row.question_revision,
    verdict: row.verdict,
    answer: JSON.parse(row.answer) as Record<string, unknown>,
    createdAt: Number(row.created_at),
  }))
}
