import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { exerciseRoutes } from '#features/api/exercises.ts'
import {
  answerQuestion,
  type ExerciseServices,
  listMyAttempts,
} from '#features/exercises/answers.server.ts'
import { listExercises } from '#features/exercises/exercise-catalogue.server.ts'
import { readExerciseSet } from '#features/exercises/exercise-set.server.ts'
import {
  createQuestion,
  deleteQuestion,
  readExerciseSetForEditor,
  readQuestionForEditor,
  reorderQuestions,
  updateQuestion,
} from '#features/exercises/questions.server.ts'
import { runReferenceSolution } from '#features/exercises/reference-check.server.ts'
import type { MarkdownRenderer } from '#features/markdown/stored-html.server.ts'
import { serve } from './serve.ts'

/** Exercises: thin adapters to the feature functions, which check access, revisions and limits. */
export function registerExerciseRoutes(
  api: FastifyInstance,
  db: Kysely<DB>,
  markdown: MarkdownRenderer,
  exercises: ExerciseServices,
): void {
  const routes = exerciseRoutes
  const now = () => api.now()
  serve(api, routes.set, async ({ params, actor }) => readExerciseSet(db, markdown, params, actor))
  serve(api, routes.list, async ({ query, actor }) => listExercises(db, actor, query))
  serve(api, routes.editorSet, async ({ params, actor }) =>
    readExerciseSetForEditor(db, actor, params.studyId),
  )
  serve(api, routes.create, async ({ params, sent, actor }) =>
    createQuestion(db, actor, params.studyId, sent.body, now()),
  )
  serve(api, routes.reorder, async ({ params, sent, actor }) =>
    reorderQuestions(db, actor, params.studyId, sent.body, now()),
  )
  serve(api, routes.draft, async ({ params, actor }) =>
    readQuestionForEditor(db, actor, params.questionId),
  )
  serve(api, routes.update, async ({ params, sent, actor }) =>
    updateQuestion(db, actor, params.questionId, sent.body, now()),
  )
  serve(api, routes.remove, async ({ params, actor }) =>
    deleteQuestion(db, actor, params.questionId, now()),
  )
  serve(api, routes.checkReference, async ({ params, actor }) =>
    runReferenceSolution(db, exercises.verifier, actor, params.questionId),
  )
  serve(api, routes.answer, async ({ params, sent, actor }) =>
    answerQuestion(db, { ...exercises, markdown }, actor, params.questionId, sent.body, now()),
  )
  serve(api, routes.attempts, async ({ params, query, actor }) => ({
    items: await listMyAttempts(db, actor, params.questionId, query),
  }))
}
