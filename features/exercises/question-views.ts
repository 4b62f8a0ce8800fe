import { z } from 'zod'
import { authorRef } from '#features/content-views.ts'
import { CODE_LANGUAGES } from '#features/exercises/code-run.ts'
import { QUESTION_KINDS } from '#features/exercises/question-input.ts'

/**
 * Zod schemas of what the exercise features answer (pages and /api; types inferred from them).
 * The learner's shapes are built from what may be shown, never by removing fields from the
 * author's: correct flags, accepted answers, the pattern, the reference solution and hidden
 * tests have no field to travel in.
 */

export const questionKind = z.enum(QUESTION_KINDS)
export const codeLanguage = z.enum(CODE_LANGUAGES)
const difficulty = z.enum(['beginner', 'intermediate', 'advanced'])
const access = z.enum(['free', 'premium'])

/** A learner's standing on one question. */
export const QUESTION_STATUSES = ['not_started', 'attempted', 'solved'] as const
export const questionStatus = z.enum(QUESTION_STATUSES)
export type QuestionStatus = z.output<typeof questionStatus>

export const visibleTest = z.object({
  name: z.string(),
  stdin: z.string(),
  expectedOutput: z.string(),
})

/** What a learner is shown of a question's kind-specific part. */
export const learnerContent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('single'),
    options: z.array(z.object({ id: z.string(), text: z.string() })),
  }),
  z.object({
    kind: z.literal('multiple'),
    options: z.array(z.object({ id: z.string(), text: z.string() })),
  }),
  z.object({ kind: z.literal('text') }),
  z.object({
    kind: z.literal('code'),
    language: codeLanguage,
    starterCode: z.string(),
    timeLimitMs: z.number(),
    /** The examples 「実行」 runs; the hidden ones are only counted. */
    visibleTests: z.array(visibleTest),
    hiddenTestCount: z.number(),
  }),
])
export type LearnerContent = z.output<typeof learnerContent>

/** One question as a learner sees it. A locked question (premium) has no prompt and no content. */
export const learnerQuestion = z.object({
  id: z.string(),
  position: z.number(),
  kind: questionKind,
  language: codeLanguage.nullable(),
  difficulty,
  access,
  tags: z.array(z.string()),
  /** The question's revision: answers are graded against the current one. */
  revision: z.number(),
  locked: z.boolean(),
  promptHtml: z.string().nullable(),
  content: learnerContent.nullable(),
  status: questionStatus,
  /** Only once the viewer has answered it (right or wrong). */
  explanationHtml: z.string().nullable(),
})
export type LearnerQuestion = z.output<typeof learnerQuestion>

/** A study's exercise set as one viewer sees it, with "n / m solved". */
export const exerciseSet = z.object({
  study: z.object({
    id: z.string(),
    title: z.string(),
    path: z.string(),
    author: authorRef,
    status: z.enum(['draft', 'published']),
    canEdit: z.boolean(),
  }),
  questions: z.array(learnerQuestion),
  solved: z.number(),
  total: z.number(),
})
export type ExerciseSet = z.output<typeof exerciseSet>

/** The author's side: every field the editor edits, correct answers and hidden tests included. */
export const authorContent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('single'),
    options: z.array(z.object({ id: z.string(), text: z.string(), correct: z.boolean() })),
  }),
  z.object({
    kind: z.literal('multiple'),
    options: z.array(z.object({ id: z.string(), text: z.string(), correct: z.boolean() })),
  }),
  z.object({
    kind: z.literal('text'),
    acceptedAnswers: z.array(z.string()),
    pattern: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('code'),
    language: codeLanguage,
    starterCode: z.string(),
    referenceSolution: z.string(),
    tests: z.array(visibleTest.extend({ hidden: z.boolean() })),
    timeLimitMs: z.number(),
  }),
])

export const authorQuestion = z.object({
  id: z.string(),
  position: z.number(),
  revision: z.number(),
  prompt: z.string(),
  explanation: z.string(),
  difficulty,
  access,
  tags: z.array(z.string()),
  content: authorContent,
})
export type AuthorQuestion = z.output<typeof authorQuestion>

/** The exercise editor's view of a study: its questions in order, with everything in them. */
export const authorExerciseSet = z.object({
  study: z.object({
    id: z.string(),
    title: z.string(),
    status: z.enum(['draft', 'published']),
    revision: z.number(),
  }),
  questions: z.array(authorQuestion),
})
export type AuthorExerciseSet = z.output<typeof authorExerciseSet>

/**
 * One visible test of a graded submission, in full: the learner knows its input and expected
 * output already. Hidden tests have no report of their own (decision 046): only `hiddenTests`.
 */
export const testReport = z.object({
  name: z.string(),
  passed: z.boolean(),
  /** How the run ended; 'skipped' when an earlier test hit the time limit and the rest were not run. */
  outcome: z.enum(['completed', 'error', 'timeout', 'output-limit', 'skipped']),
  /** What the program printed and the error (with its line when known); null when not run. */
  stdout: z.string().nullable(),
  stderr: z.string().nullable(),
  error: z.object({ message: z.string(), line: z.number().optional() }).nullable(),
  /** A Japanese sentence for a timeout, an output limit or a test not run. */
  message: z.string().nullable(),
})
export type TestReport = z.output<typeof testReport>

/**
 * What a learner learns of a question's hidden tests (decision 046): how many there are and how
 * many passed, nothing per test (no name, order, outcome or time). `passed` is null when they
 * were not all run (a time limit stopped the submission): a count of those before the stop
 * would tell where the looping one stands.
 */
export const hiddenTestsReport = z.object({
  total: z.number(),
  passed: z.number().nullable(),
  allPassed: z.boolean(),
  /** A Japanese sentence when they were not all run. */
  message: z.string().nullable(),
})
export type HiddenTestsReport = z.output<typeof hiddenTestsReport>

/** The author's check of their reference solution: every test in full, hidden ones included. */
export const referenceTestReport = testReport.extend({
  hidden: z.boolean(),
  durationMs: z.number(),
})
export type ReferenceTestReport = z.output<typeof referenceTestReport>

/** What the server found of one answer. */
export const answerFeedback = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('single'), chosenWrong: z.boolean() }),
  z.object({
    kind: z.literal('multiple'),
    /** Options chosen that are not correct. */
    wrongOptionIds: z.array(z.string()),
    /** How many correct options were not chosen. */
    missingCorrect: z.number(),
  }),
  z.object({ kind: z.literal('text') }),
  z.object({
    kind: z.literal('code'),
    /** The visible tests, in their order. */
    tests: z.array(testReport),
    hiddenTests: hiddenTestsReport,
  }),
])
export type AnswerFeedback = z.output<typeof answerFeedback>

export const answerResult = z.object({
  attemptId: z.string(),
  verdict: z.enum(['correct', 'incorrect']),
  /** The Japanese summary shown beside the answer. */
  message: z.string(),
  feedback: answerFeedback,
  status: questionStatus,
  /** This answer was the learner's first correct one (a history event was written). */
  firstSolve: z.boolean(),
  explanationHtml: z.string(),
})
export type AnswerResult = z.output<typeof answerResult>

/** One of a learner's attempts, newest first. */
export const attemptView = z.object({
  id: z.string(),
  questionId: z.string(),
  questionRevision: z.number(),
  verdict: z.enum(['correct', 'incorrect']),
  /** The answer as it was sent. */
  answer: z.record(z.string(), z.unknown()),
  createdAt: z.number(),
})
export type AttemptView = z.output<typeof attemptView>

/** A question as /exercises lists it; locked ones carry no excerpt of their prompt. */
export const exerciseCard = z.object({
  id: z.string(),
  kind: questionKind,
  language: codeLanguage.nullable(),
  difficulty,
  access,
  tags: z.array(z.string()),
  locked: z.boolean(),
  /** The prompt's first words as plain text; null when locked. */
  excerpt: z.string().nullable(),
  status: questionStatus,
  position: z.number(),
  study: z.object({ id: z.string(), title: z.string(), path: z.string() }),
  author: authorRef,
  publishedAt: z.number(),
})
export type ExerciseCard = z.output<typeof exerciseCard>

/** A reference solution that fails its own tests: publishing is refused naming the question. */
export const referenceFailure = z.object({
  questionId: z.string(),
  position: z.number(),
  message: z.string(),
})
export type ReferenceFailure = z.output<typeof referenceFailure>
