import type { AnswerInput } from '#features/exercises/question-input.ts'
import { callApi } from './client.ts'

/** /example's answers, by route key: the contracts (zod) load on the first answer, not with the page. */
export function exampleApi(baseUrl: string) {
  return {
    answer: (questionId: string, answer: AnswerInput) =>
      callApi(baseUrl, 'example.answer', { params: { questionId }, body: answer }),
  }
}
