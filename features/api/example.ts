import { z } from 'zod'
import { answerInput } from '#features/exercises/question-input.ts'
import { sampleAnswerResult } from '#features/exercises/sample-views.ts'
import { pathId, route } from './contract.ts'

/** /example's sample exercise set: graded by the server's rules, without an account, stored nowhere. */
export const exampleRoutes = {
  answer: route({
    method: 'POST',
    path: '/example/questions/:questionId/answers',
    summary: 'お試し演習の答えを採点（アカウント不要・保存しない）',
    params: z.object({ questionId: pathId }),
    body: answerInput,
    status: 200,
    response: sampleAnswerResult,
  }),
}
