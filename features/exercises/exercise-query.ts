import { z } from 'zod'
import { level } from '#features/courses/course-input.ts'
import { cursorParameter, pageSizeParameter } from '#features/pagination.ts'
import { tagSchema } from '#features/tags/normalize.ts'
import { CODE_LANGUAGES } from './code-run.ts'
import { QUESTION_KINDS } from './question-input.ts'
import { QUESTION_STATUSES } from './question-views.ts'

/** /exercises' filters; an empty value (an unset select in a GET form) means "any". */
const anyWhenEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional())

export const exerciseFilters = z.object({
  tag: anyWhenEmpty(tagSchema),
  language: anyWhenEmpty(z.enum(CODE_LANGUAGES, { error: '言語は JavaScript か Python です' })),
  kind: anyWhenEmpty(z.enum(QUESTION_KINDS, { error: '問題の形式を選んでください' })),
  difficulty: anyWhenEmpty(level),
  /** The viewer's own status; a guest has started nothing. */
  status: anyWhenEmpty(z.enum(QUESTION_STATUSES, { error: '状態を選んでください' })),
})
export type ExerciseFilters = z.infer<typeof exerciseFilters>

export const exerciseQuery = exerciseFilters.extend({
  cursor: cursorParameter.optional(),
  limit: pageSizeParameter,
})
export type ExerciseQuery = z.infer<typeof exerciseQuery>
