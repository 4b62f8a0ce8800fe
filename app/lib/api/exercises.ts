import type { QuestionPayload } from '#app/components/exercises/question-form-state.ts'
import type { AnswerInput } from '#features/exercises/question-input.ts'
import type { AnswerResult } from '#features/exercises/question-views.ts'
import { callApi } from './client.ts'

/** What the exercise pages ask of /api: authoring a study's questions, and answering them. */
export type ExerciseApi = {
  create(studyId: string, fields: QuestionPayload): Promise<{ id: string; revision: number }>
  update(
    questionId: string,
    fields: QuestionPayload & { revision: number },
  ): Promise<{ revision: number }>
  remove(questionId: string): Promise<void>
  reorder(studyId: string, questionIds: string[]): Promise<unknown>
  answer(questionId: string, answer: AnswerInput): Promise<AnswerResult>
}

/** By route key: the contracts (zod) load on the first call, not with the page (decision 028). */
export function exerciseApi(baseUrl: string): ExerciseApi {
  return {
    create: (studyId, fields) =>
      callApi(baseUrl, 'exercises.create', { params: { studyId }, body: fields }),
    update: (questionId, fields) =>
      callApi(baseUrl, 'exercises.update', { params: { questionId }, body: fields }),
    remove: (questionId) => callApi(baseUrl, 'exercises.remove', { params: { questionId } }),
    reorder: (studyId, questionIds) =>
      callApi(baseUrl, 'exercises.reorder', { params: { studyId }, body: { questionIds } }),
    answer: (questionId, answer) =>
      callApi(baseUrl, 'exercises.answer', { params: { questionId }, body: answer }),
  }
}
