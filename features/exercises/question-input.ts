import { z } from 'zod'
import { access, level, revision } from '#features/courses/course-input.ts'
import {
  CODE_LANGUAGES,
  DEFAULT_TIME_LIMIT_MS,
  MAX_CODE_BYTES,
  MAX_TEST_TEXT_BYTES,
  MAX_TIME_LIMIT_MS,
  MIN_TIME_LIMIT_MS,
} from '#features/exercises/code-run.ts'
import {
  MAX_ACCEPTED_ANSWERS,
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  MAX_PATTERN_LENGTH,
  MAX_QUESTIONS_PER_STUDY,
  MAX_TEST_NAME_LENGTH,
  MAX_TESTS,
  MAX_TEXT_ANSWER_LENGTH,
} from '#features/exercises/question-limits.ts'
import { markdownBodySchema } from '#features/markdown/body.ts'
import { tagListSchema } from '#features/tags/normalize.ts'

// What authors may send when writing a study's questions: shared by the exercise editor
// (limits, messages) and the server, which validates every write whatever the browser checked.
// A question is one of four kinds; the kind-specific part is a discriminated union on `kind`.

// The kinds and limits live in a module without zod, for the answer forms of guest pages
// (the first-load budget); the schemas below read them from there.
export {
  MAX_ACCEPTED_ANSWERS,
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  MAX_PATTERN_LENGTH,
  MAX_QUESTIONS_PER_STUDY,
  MAX_TEST_NAME_LENGTH,
  MAX_TESTS,
  MAX_TEXT_ANSWER_LENGTH,
  QUESTION_KINDS,
  type QuestionKind,
} from './question-limits.ts'

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length
}

/** Program text (starter code, reference solution, a learner's submission): at most 64 KB. */
export const codeText = z
  .string({ error: 'コードは文字列で入力してください' })
  .refine((text) => byteLength(text) <= MAX_CODE_BYTES, {
    error: `コードは ${MAX_CODE_BYTES / 1024} KB 以内にしてください`,
  })

const testText = (what: string) =>
  z
    .string({ error: `${what}は文字列で入力してください` })
    .refine((text) => byteLength(text) <= MAX_TEST_TEXT_BYTES, {
      error: `${what}は ${MAX_TEST_TEXT_BYTES / 1024} KB 以内にしてください`,
    })

export const optionInput = z.object({
  /** Stable within the question, chosen by the editor (answers name options by id). */
  id: z.string().regex(/^[a-z0-9-]{1,36}$/, '選択肢の ID が正しくありません'),
  text: z
    .string({ error: '選択肢は文字列で入力してください' })
    .trim()
    .min(1, '選択肢を入力してください')
    .max(MAX_OPTION_LENGTH, `選択肢は ${MAX_OPTION_LENGTH} 文字以内で入力してください`),
  correct: z.boolean().default(false),
})

const options = z
  .array(optionInput)
  .min(2, '選択肢を 2 つ以上用意してください')
  .max(MAX_OPTIONS, `選択肢は ${MAX_OPTIONS} 個までです`)
  .refine((list) => new Set(list.map((option) => option.id)).size === list.length, {
    error: '選択肢の ID が重複しています',
  })

export const codeTestInput = z.object({
  name: z
    .string({ error: 'テスト名は文字列で入力してください' })
    .trim()
    .min(1, 'テスト名を入力してください')
    .max(MAX_TEST_NAME_LENGTH, `テスト名は ${MAX_TEST_NAME_LENGTH} 文字以内で入力してください`),
  stdin: testText('標準入力').default(''),
  expectedOutput: testText('期待する出力'),
  /** Hidden tests are never sent to learners; only 「提出」 runs them (and the server). */
  hidden: z.boolean().default(false),
})

const singleChoice = z.object({
  kind: z.literal('single'),
  options: options.refine((list) => list.filter((option) => option.correct).length === 1, {
    error: '正解の選択肢をちょうど 1 つ選んでください',
  }),
})
const multipleChoice = z.object({
  kind: z.literal('multiple'),
  options: options.refine((list) => list.some((option) => option.correct), {
    error: '正解の選択肢を 1 つ以上選んでください',
  }),
})
const shortText = z.object({
  kind: z.literal('text'),
  acceptedAnswers: z
    .array(
      z
        .string()
        .trim()
        .min(1, '正解を入力してください')
        .max(MAX_TEXT_ANSWER_LENGTH, `正解は ${MAX_TEXT_ANSWER_LENGTH} 文字以内で入力してください`),
    )
    .max(MAX_ACCEPTED_ANSWERS, `正解は ${MAX_ACCEPTED_ANSWERS} 個までです`)
    .default([]),
  /** Optional regular expression an answer may match instead (after the same folding). */
  pattern: z
    .string()
    .max(MAX_PATTERN_LENGTH, `正規表現は ${MAX_PATTERN_LENGTH} 文字以内で入力してください`)
    .nullable()
    .default(null),
})
const codeQuestion = z.object({
  kind: z.literal('code'),
  language: z.enum(CODE_LANGUAGES, { error: '言語は JavaScript か Python を選んでください' }),
  starterCode: codeText.default(''),
  referenceSolution: codeText,
  tests: z
    .array(codeTestInput)
    .min(1, 'テストを 1 つ以上用意してください')
    .max(MAX_TESTS, `テストは ${MAX_TESTS} 個までです`),
  timeLimitMs: z.coerce
    .number()
    .int()
    .min(MIN_TIME_LIMIT_MS, `制限時間は ${MIN_TIME_LIMIT_MS / 1000} 秒以上にしてください`)
    .max(MAX_TIME_LIMIT_MS, `制限時間は ${MAX_TIME_LIMIT_MS / 1000} 秒以内にしてください`)
    .default(DEFAULT_TIME_LIMIT_MS),
})

/** The kind-specific part of a question. */
export const questionBody = z.discriminatedUnion('kind', [
  singleChoice,
  multipleChoice,
  shortText,
  codeQuestion,
])

/** Fields every question has, whatever its kind. */
export const questionCommon = z.object({
  prompt: markdownBodySchema.refine((text) => text.trim().length > 0, {
    error: '問題文を入力してください',
  }),
  /** Shown after the learner answers (right or wrong). */
  explanation: markdownBodySchema.default(''),
  difficulty: level.default('beginner'),
  access: access.default('free'),
  tags: tagListSchema.default([]),
})

export const questionFields = z
  .intersection(questionCommon, questionBody)
  .superRefine((question, context) => {
    if (
      question.kind === 'text' &&
      question.acceptedAnswers.length === 0 &&
      question.pattern === null
    ) {
      context.addIssue({
        code: 'custom',
        path: ['acceptedAnswers'],
        message: '正解か正規表現を 1 つ以上用意してください',
      })
    }
  })
export type QuestionFields = z.infer<typeof questionFields>

export const questionUpdate = z.intersection(questionFields, z.object({ revision }))
export type QuestionUpdate = z.infer<typeof questionUpdate>

/** What a learner sends when answering, by kind. */
export const answerInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('single'), optionId: z.string().max(36) }),
  z.object({
    kind: z.literal('multiple'),
    optionIds: z.array(z.string().max(36)).max(MAX_OPTIONS),
  }),
  z.object({
    kind: z.literal('text'),
    text: z
      .string()
      .max(MAX_TEXT_ANSWER_LENGTH, `答えは ${MAX_TEXT_ANSWER_LENGTH} 文字以内で入力してください`),
  }),
  z.object({ kind: z.literal('code'), code: codeText }),
])
export type AnswerInput = z.infer<typeof answerInput>

/** The attempts list's size (newest first). */
export const attemptsQuery = z.object({
  limit: z.coerce
    .number({ error: '件数は 1 から 50 までの整数で指定してください' })
    .int('件数は 1 から 50 までの整数で指定してください')
    .min(1, '件数は 1 から 50 までの整数で指定してください')
    .max(50, '件数は 1 から 50 までの整数で指定してください')
    .default(20),
})

/** The order of a study's questions: every question id of the study, once each. */
export const questionOrder = z.object({
  questionIds: z
    .array(z.string().min(1).max(64), { error: '問題の並び順を指定してください' })
    .max(MAX_QUESTIONS_PER_STUDY),
})
