import type { FastifyInstance } from 'fastify'
import { exampleRoutes as routes } from '#features/api/example.ts'
import type { ExerciseServices } from '#features/exercises/answers.server.ts'
import { answerSampleQuestion } from '#features/exercises/sample-answers.server.ts'
import { serve } from './serve.ts'

/** /example's sample exercises: graded like any answer, by client address for the code limit. */
export function registerExampleRoutes(api: FastifyInstance, services: ExerciseServices): void {
  serve(api, routes.answer, async ({ params, sent }, request) =>
    answerSampleQuestion(services, request.ip, params.questionId, sent.body),
  )
}
