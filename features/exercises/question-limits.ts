// A question's kinds and size limits, without zod: the answer forms of pages a guest reads use
// them (the first-load budget); question-input.ts builds its schemas from them and re-exports them.

export const QUESTION_KINDS = ['single', 'multiple', 'text', 'code'] as const
export type QuestionKind = (typeof QUESTION_KINDS)[number]

export const MAX_QUESTIONS_PER_STUDY = 100
export const MAX_OPTIONS = 10
export const MAX_OPTION_LENGTH = 300
export const MAX_ACCEPTED_ANSWERS = 20
export const MAX_TEXT_ANSWER_LENGTH = 200
export const MAX_PATTERN_LENGTH = 200
export const MAX_TESTS = 20
export const MAX_TEST_NAME_LENGTH = 100
