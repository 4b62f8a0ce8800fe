import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
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
  actorOf: (request: FastifyRequest) => Promise<Actor | undefined>,
): void {
  const routes = exerciseRoutes
  const now = () => api.now()
  serve(api, routes.set, async ({ params }, request) =>
    readExerciseSet(db, markdown, params, await actorOf(request)),
  )
  serve(api, routes.list, async ({ query }, request) =>
    listExercises(db, await actorOf(request), query),
  )
  serve(api, routes.editorSet, async ({ params }, request) =>
    readExerciseSetForEditor(db, await actorOf(request), params.studyId),
  )
  serve(api, routes.create, async ({ params, sent }, request) =>
    createQuestion(db, await actorOf(request), params.studyId, sent.body, now()),
  )
  serve(api, routes.reorder, async ({ params, sent }, request) =>
    reorderQuestions(db, await actorOf(request), params.studyId, sent.body, now()),
  )
  serve(api, routes.draft, async ({ params }, request) =>
    readQuestionForEditor(db, await actorOf(request), params.questionId),
  )
  serve(api, routes.update, async ({ params, sent }, request) =>
    updateQuestion(db, await actorOf(request), params.questionId, sent.body, now()),
  )
  serve(api, routes.remove, async ({ params }, request) =>
    deleteQuestion(db, await actorOf(request), params.questionId, now()),
  )
  serve(api, routes.checkReference, async ({ params }, request) =>
    runReferenceSolution(db, exercises.verifier, await actorOf(request), params.questionId),
  )
  serve(api, routes.answer, async ({ params, sent }, request) =>
    answerQuestion(
      db,
      { ...exercises, markdown },
      await actorOf(request),
      params.questionId,
      sent.body,
      now(),
    ),
  )
  serve(api, routes.attempts, async ({ params, query }, request) => ({
    items: await listMyAttempts(db, await actorOf(request), params.questionId, query),
  }))
}
