import type { z } from 'zod'
import { answerResult } from './question-views.ts'

/** A graded answer to /example's sample set: nothing is stored, so no attempt and no first solve. */
export const sampleAnswerResult = answerResult.omit({ attemptId: true, firstSolve: true })
export type SampleAnswerResult = z.output<typeof sampleAnswerResult>
