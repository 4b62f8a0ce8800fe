import { z } from 'zod'
import { catalogueQuery } from '../../features/courses/catalogue.server.ts'
import {
  basedOnRevision,
  courseFields,
  courseUpdate,
  lessonUpdate,
  move,
  newLesson,
  sectionFields,
} from '../../features/courses/course-input.ts'
import { pageQuery } from '../../features/pagination.ts'
import { searchQuery } from '../../features/search/search-query.ts'
import { studyFields, studyUpdate } from '../../features/studies/study-input.ts'
import { studyListQuery } from '../../features/studies/study-lists.server.ts'
import { profileFields } from '../../features/users/profile-input.ts'
import { pathId } from './request-params.ts'

type Operation = {
  method: 'get' | 'post' | 'put' | 'delete'
  /** Fastify's form, relative to /api: `/courses/:courseId`. */
  path: string
  summary: string
  query?: z.ZodObject
  body?: z.ZodType
  /** The success status, when it is not 200. */
  status?: 201 | 204
  signIn?: boolean
}

/**
 * Every /api route, with the zod schemas its feature validates with; openapi.test.ts checks
 * that each route registered under /api is listed here.
 */
const OPERATIONS: readonly Operation[] = [
  { method: 'get', path: '/courses', summary: '公開中のコース一覧', query: catalogueQuery },
  {
    method: 'get',
    path: '/users/:username/courses/:courseId',
    summary: 'コース（セクションとレッスン、学習者の進捗）',
  },
  {
    method: 'get',
    path: '/users/:username/courses/:courseId/lessons/:lessonId',
    summary: 'レッスン（プレミアムは無料プランではロック）',
  },
  {
    method: 'post',
    path: '/users/:username/courses/:courseId/lessons/:lessonId/done',
    summary: 'レッスンを完了にする',
    signIn: true,
  },
  {
    method: 'post',
    path: '/courses',
    summary: 'コースを作成（下書き）',
    body: courseFields,
    status: 201,
    signIn: true,
  },
  {
    method: 'get',
    path: '/courses/:courseId/draft',
    summary: '編集用のコース',
    signIn: true,
  },
  {
    method: 'put',
    path: '/courses/:courseId',
    summary: 'コースを更新',
    body: courseUpdate,
    signIn: true,
  },
  {
    method: 'post',
    path: '/courses/:courseId/publish',
    summary: 'コースを公開',
    body: basedOnRevision,
    signIn: true,
  },
  {
    method: 'post',
    path: '/courses/:courseId/unpublish',
    summary: 'コースを下書きに戻す',
    body: basedOnRevision,
    signIn: true,
  },
  {
    method: 'delete',
    path: '/courses/:courseId',
    summary: 'コースを削除',
    status: 204,
    signIn: true,
  },
  {
    method: 'post',
    path: '/courses/:courseId/sections',
    summary: 'セクションを追加',
    body: sectionFields,
    status: 201,
    signIn: true,
  },
  {
    method: 'put',
    path: '/courses/:courseId/sections/:sectionId',
    summary: 'セクション名を変更',
    body: sectionFields,
    signIn: true,
  },
  {
    method: 'post',
    path: '/courses/:courseId/sections/:sectionId/move',
    summary: 'セクションを移動',
    body: move,
    signIn: true,
  },
  {
    method: 'delete',
    path: '/courses/:courseId/sections/:sectionId',
    summary: 'セクションを削除',
    query: basedOnRevision,
    signIn: true,
  },
  {
    method: 'post',
    path: '/courses/:courseId/lessons',
    summary: 'レッスンを追加',
    body: newLesson,
    status: 201,
    signIn: true,
  },
  {
    method: 'put',
    path: '/courses/:courseId/lessons/:lessonId',
    summary: 'レッスンを更新',
    body: lessonUpdate,
    signIn: true,
  },
  {
    method: 'post',
    path: '/courses/:courseId/lessons/:lessonId/move',
    summary: 'レッスンを移動',
    body: move,
    signIn: true,
  },
  {
    method: 'delete',
    path: '/courses/:courseId/lessons/:lessonId',
    summary: 'レッスンを削除',
    query: basedOnRevision,
    signIn: true,
  },
  { method: 'get', path: '/studies', summary: '公開中のスタディ一覧', query: studyListQuery },
  {
    method: 'get',
    path: '/users/:username/studies',
    summary: 'ユーザーの公開中のスタディ一覧',
    query: studyListQuery,
  },
  { method: 'get', path: '/users/:username/studies/:studyId', summary: 'スタディ（ノート）' },
  {
    method: 'post',
    path: '/studies',
    summary: 'スタディを作成（下書き）',
    body: studyFields,
    status: 201,
    signIn: true,
  },
  { method: 'get', path: '/studies/:studyId/draft', summary: '編集用のスタディ', signIn: true },
  {
    method: 'put',
    path: '/studies/:studyId',
    summary: 'スタディを更新（revision が古ければ 409）',
    body: studyUpdate,
    signIn: true,
  },
  {
    method: 'post',
    path: '/studies/:studyId/publish',
    summary: 'スタディを公開',
    body: basedOnRevision,
    signIn: true,
  },
  {
    method: 'post',
    path: '/studies/:studyId/unpublish',
    summary: 'スタディを非公開に戻す',
    body: basedOnRevision,
    signIn: true,
  },
  {
    method: 'delete',
    path: '/studies/:studyId',
    summary: 'スタディを削除',
    status: 204,
    signIn: true,
  },
  { method: 'get', path: '/drafts', summary: '自分の下書き（すべての種類）', signIn: true },
  {
    method: 'get',
    path: '/search',
    summary: '公開中のコンテンツを全文検索',
    query: searchQuery,
  },
  {
    method: 'get',
    path: '/users/:username',
    summary: 'プロフィール（フォロワー数・フォロー数・公開数）',
  },
  {
    method: 'get',
    path: '/users/:username/follow',
    summary: 'フォローしているかとフォロー数（ゲストは following: false）',
  },
  {
    method: 'post',
    path: '/users/:username/follow',
    summary: 'フォローする（自分自身は 400、フォロー済みは 409）',
    signIn: true,
  },
  {
    method: 'delete',
    path: '/users/:username/follow',
    summary: 'フォローをやめる（フォローしていなければ 409）',
    signIn: true,
  },
  {
    method: 'get',
    path: '/users/:username/followers',
    summary: 'フォロワーの一覧',
    query: pageQuery,
  },
  {
    method: 'get',
    path: '/users/:username/following',
    summary: 'フォロー中のユーザーの一覧',
    query: pageQuery,
  },
  {
    method: 'get',
    path: '/feed',
    summary: 'フォロー中のユーザーの新着コンテンツ',
    query: pageQuery,
    signIn: true,
  },
  {
    method: 'get',
    path: '/histories',
    summary: '自分の学習履歴（新しい順）',
    query: pageQuery,
    signIn: true,
  },
  {
    method: 'get',
    path: '/histories/summary',
    summary: '連続学習日数・合計・日ごとのヒートマップ（自分のタイムゾーン）',
    signIn: true,
  },
  { method: 'get', path: '/profile', summary: '自分のプロフィール設定', signIn: true },
  {
    method: 'put',
    path: '/profile',
    summary: 'プロフィール（表示名・自己紹介・リンク・タイムゾーン）を更新',
    body: profileFields,
    signIn: true,
  },
  { method: 'get', path: '/openapi.json', summary: 'この OpenAPI ドキュメント' },
]

/** What a client may send: the input side of a schema (before coercion and defaults). */
function jsonSchema(schema: z.ZodType) {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' })
}

const ERROR_RESPONSE = {
  description: 'エラー（400 は fields に項目ごとのメッセージ）',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            required: ['code', 'message'],
            properties: {
              code: { type: 'string' },
              message: { type: 'string' },
              fields: {
                type: 'object',
                additionalProperties: { type: 'array', items: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  },
}

function operationObject(operation: Operation) {
  const pathParameters = [...operation.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: jsonSchema(pathId),
  }))
  const queryShape = operation.query ? jsonSchema(operation.query) : undefined
  const queryParameters = Object.entries(
    (queryShape?.properties ?? {}) as Record<string, object>,
  ).map(([name, schema]) => ({
    name,
    in: 'query',
    required: ((queryShape?.required ?? []) as string[]).includes(name),
    schema,
  }))
  const status = String(operation.status ?? 200)
  return {
    summary: operation.summary,
    ...(operation.signIn && { security: [{ session: [] }] }),
    parameters: [...pathParameters, ...queryParameters],
    ...(operation.body && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: jsonSchema(operation.body) } },
      },
    }),
    responses: {
      [status]:
        status === '204'
          ? { description: '成功（本文なし）' }
          : { description: '成功', content: { 'application/json': {} } },
      '4XX': ERROR_RESPONSE,
    },
  }
}

/** The OpenAPI 3.1 document of /api, built from the same zod schemas the features validate with. */
export function openApiDocument() {
  const paths: Record<string, Record<string, ReturnType<typeof operationObject>>> = {}
  for (const operation of OPERATIONS) {
    const openApiPath = `/api${operation.path.replace(/:(\w+)/g, '{$1}')}`
    paths[openApiPath] = { ...paths[openApiPath], [operation.method]: operationObject(operation) }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'テックラボ API',
      version: '1',
      description: 'ページと同じ機能を JSON で。一覧はカーソルでページ送りします。',
    },
    components: {
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'CognitoIdentityServiceProvider.*',
          description: 'Amplify がブラウザに保存するセッションの Cookie',
        },
      },
    },
    paths,
  }
}
