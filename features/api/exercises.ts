import { z } from 'zod'
import { created, pageOf, saved } from '#features/content-views.ts'
import { exerciseQuery } from '#features/exercises/exercise-query.ts'
import {
  answerInput,
  attemptsQuery,
  questionFields,
  questionOrder,
  questionUpdate,
} from '#features/exercises/question-input.ts'
import {
  answerResult,
  attemptView,
  authorExerciseSet,
  authorQuestion,
  exerciseCard,
  exerciseSet,
  referenceTestReport,
} from '#features/exercises/question-views.ts'
import { noContent, pathId, route } from './contract.ts'

const studyParams = z.object({ studyId: pathId })
const questionParams = z.object({ questionId: pathId })

/**
 * Exercises: a study's questions for learners and for their author, the author's
 * writes, answers graded by the server, one's own attempts, and /exercises across studies.
 */
export const exerciseRoutes = {
  set: route({
    method: 'GET',
    path: '/users/:username/studies/:studyId/exercises',
    summary: 'スタディの問題一覧（自分の状態つき。正解や非公開テストは含まない）',
    params: z.object({ username: pathId, studyId: pathId }),
    status: 200,
    response: exerciseSet,
  }),
  list: route({
    method: 'GET',
    path: '/exercises',
    summary: '公開中の問題一覧（タグ・言語・形式・難易度・自分の状態で絞り込み）',
    query: exerciseQuery,
    status: 200,
    response: pageOf(exerciseCard),
  }),
  editorSet: route({
    method: 'GET',
    path: '/studies/:studyId/questions',
    summary: '編集用の問題一覧（正解・非公開テストを含む。作成者のみ）',
    signIn: true,
    params: studyParams,
    status: 200,
    response: authorExerciseSet,
  }),
  create: route({
    method: 'POST',
    path: '/studies/:studyId/questions',
    summary: '問題を追加（末尾に）',
    signIn: true,
    params: studyParams,
    body: questionFields,
    status: 201,
    response: created.extend({ position: z.number() }),
  }),
  reorder: route({
    method: 'PUT',
    path: '/studies/:studyId/questions/order',
    summary: '問題を並べ替え（すべての問題 ID を新しい順に）',
    signIn: true,
    params: studyParams,
    body: questionOrder,
    status: 204,
    response: noContent,
  }),
  draft: route({
    method: 'GET',
    path: '/questions/:questionId/draft',
    summary: '編集用の問題',
    signIn: true,
    params: questionParams,
    status: 200,
    response: authorQuestion.extend({ studyId: z.string() }),
  }),
  update: route({
    method: 'PUT',
    path: '/questions/:questionId',
    summary: '問題を更新（revision が古ければ 409）',
    signIn: true,
    params: questionParams,
    body: questionUpdate,
    status: 200,
    response: saved,
  }),
  remove: route({
    method: 'DELETE',
    path: '/questions/:questionId',
    summary: '問題を削除',
    signIn: true,
    params: questionParams,
    status: 204,
    response: noContent,
  }),
  checkReference: route({
    method: 'POST',
    path: '/questions/:questionId/reference-check',
    summary: '模範解答をすべてのテストで実行（作成者のみ）',
    signIn: true,
    params: questionParams,
    status: 200,
    response: z.object({ passed: z.boolean(), tests: z.array(referenceTestReport) }),
  }),
  answer: route({
    method: 'POST',
    path: '/questions/:questionId/answers',
    summary: '解答する（サーバーが採点。コードはサーバーのサンドボックスで全テストを実行）',
    signIn: true,
    params: questionParams,
    body: answerInput,
    status: 201,
    response: answerResult,
  }),
  attempts: route({
    method: 'GET',
    path: '/questions/:questionId/attempts',
    summary: '自分の解答履歴（新しい順）',
    signIn: true,
    params: questionParams,
    query: attemptsQuery,
    status: 200,
    response: z.object({ items: z.array(attemptView) }),
  }),
}
