import { ContentError, parseInput } from '#features/content-error.ts'
import { sampleQuestion, sampleQuestions } from '#features/example/sample-exercises.server.ts'
import { renderMarkdown } from '#features/markdown/render.ts'
import { codeFeedback, type ExerciseServices, messageOf, runAllTests } from './answers.server.ts'
import { learnerContentOf } from './exercise-set.server.ts'
import { type Grade, gradeMultiple, gradeSingle, gradeText } from './grading.server.ts'
import { answerInput } from './question-input.ts'
import type { LearnerQuestion } from './question-views.ts'
import type { SampleAnswerResult } from './sample-views.ts'

// /example's exercise set, answered by anyone without an account: graded by the same rules as
// a study's questions (grading.server.ts, and the server's sandbox for code), and stored
// nowhere. The correct answers stay on the server like every question's.

const MINUTE_MS = 60_000

// Fixed, trusted texts: rendered once per process, on first use (decision 022).
let rendered: Map<string, { prompt: string; explanation: string }> | undefined
function htmlOf(id: string) {
  rendered ??= new Map(
    sampleQuestions.map((question) => [
      question.id,
      {
        prompt: renderMarkdown(question.prompt),
        explanation: renderMarkdown(question.explanation),
      },
    ]),
  )
  return rendered.get(id) ?? { prompt: '', explanation: '' }
}

/** The sample questions as a guest sees them before answering. */
export function sampleExerciseSet(): LearnerQuestion[] {
  return sampleQuestions.map((question, position) => ({
    id: question.id,
    position,
    kind: question.kind,
    language: question.kind === 'code' ? question.language : null,
    difficulty: question.difficulty,
    access: question.access,
    tags: question.tags,
    revision: 1,
    locked: false,
    promptHtml: htmlOf(question.id).prompt,
    content: learnerContentOf(question),
    status: 'not_started',
    explanationHtml: null,
  }))
}

/**
 * Grades a guest's answer to a sample question. Code runs in the server's sandbox like any
 * submission, so it is limited per client address (`source`) on the answers' limiter.
 */
export async function answerSampleQuestion(
  services: ExerciseServices,
  source: string,
  questionId: string,
  input: unknown,
): Promise<SampleAnswerResult> {
  const question = sampleQuestion(questionId)
  if (!question) throw ContentError.notFound('問題が見つかりません')
  const answer = parseInput(answerInput, input)
  if (answer.kind !== question.kind) {
    throw ContentError.validation([
      { path: ['kind'], message: 'この問題の形式に合う答えを送ってください' },
    ])
  }
  let grade: Grade
  if (answer.kind === 'single' && question.kind === 'single') {
    grade = gradeSingle(question.options, answer.optionId)
  } else if (answer.kind === 'multiple' && question.kind === 'multiple') {
    grade = gradeMultiple(question.options, answer.optionIds)
  } else if (answer.kind === 'text' && question.kind === 'text') {
    grade = gradeText(question, answer.text)
  } else if (answer.kind === 'code' && question.kind === 'code') {
    await limitGuestCode(services, source)
    // Keyed like a study's question for the verdict cache; the sample never changes revision.
    const { passed, outcomes } = await runAllTests(
      services.verifier,
      { id: `sample-${question.id}`, revision: 1 },
      question,
      answer.code,
      source,
    )
    grade = { correct: passed, feedback: codeFeedback(question, outcomes) }
  } else {
    throw new Error(`sample ${question.id} is ${question.kind}`)
  }
  return {
    verdict: grade.correct ? 'correct' : 'incorrect',
    message: messageOf(grade),
    feedback: grade.feedback,
    // Nothing is kept: the status is this answer's alone.
    status: grade.correct ? 'solved' : 'attempted',
    explanationHtml: htmlOf(question.id).explanation,
  }
}

async function limitGuestCode(services: ExerciseServices, source: string): Promise<void> {
  try {
    const count = await services.limits.limiter.hit(`example-code:${source}`, MINUTE_MS)
    if (count > services.limits.codeSubmissionsPerMinute) {
      throw new ContentError(
        'RATE_LIMITED',
        '短い時間に提出が続いたため、少し待ってからもう一度お試しください',
      )
    }
  } catch (error) {
    if (error instanceof ContentError) throw error
    services.warn?.({ err: error }, 'example limiter unavailable; submission not limited')
  }
}
