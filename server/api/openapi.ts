import { z } from 'zod'
import { catalogueQuery } from '#features/courses/catalogue.server.ts'
import {
  basedOnRevision,
  courseCover,
  courseFields,
  courseUpdate,
  lessonUpdate,
  move,
  newLesson,
  sectionFields,
} from '#features/courses/course-input.ts'
import {
  labChoicesQuery,
  labFields,
  labStoryFields,
  labStoryUpdate,
  labUpdate,
} from '#features/labs/lab-input.ts'
import { pageQuery } from '#features/pagination.ts'
import { searchQuery } from '#features/search/search-query.ts'
import { commentUpdate, newComment } from '#features/social/comment-input.ts'
import { studyFields, studyUpdate } from '#features/studies/study-input.ts'
import { studyListQuery } from '#features/studies/study-lists.server.ts'
import { profileFields } from '#features/users/profile-input.ts'
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
    method: 'delete',
    path: '/users/:username/courses/:courseId/lessons/:lessonId/done',
    summary: 'レッスンの完了を取り消す',
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
    method: 'put',
    path: '/courses/:courseId/cover',
    summary: 'カバー画像を設定（アップロードした公開画像のキー）または外す（null）',
    body: courseCover,
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
  ...editableOperations({
    collection: '/studies',
    idName: 'studyId',
    label: 'スタディ',
    fields: studyFields,
    update: studyUpdate,
  }),
  ...editableOperations({
    collection: '/labs',
    idName: 'labId',
    label: 'ラボ',
    fields: labFields,
    update: labUpdate,
  }),
  {
    method: 'get',
    path: '/labs/:labId/stories',
    summary: 'ラボの公開中のストーリー一覧',
    query: studyListQuery,
  },
  ...editableOperations({
    collection: '/labs_stories',
    idName: 'storyId',
    label: 'ストーリー',
    fields: labStoryFields,
    update: labStoryUpdate,
  }),
  {
    method: 'get',
    path: '/labs_stories/lab-choices',
    summary: 'ストーリーに結び付けられるラボ（自分のラボ）',
    query: labChoicesQuery,
    signIn: true,
  },
  { method: 'get', path: '/drafts', summary: '自分の下書き（すべての種類）', signIn: true },
  {
    method: 'get',
    path: '/search',
    summary: '公開中のコンテンツを全文検索',
    query: searchQuery,
  },
  { method: 'get', path: '/likes/:kind/:id', summary: 'いいねの数と自分のいいね' },
  {
    method: 'put',
    path: '/likes/:kind/:id',
    summary: 'いいねする（何度しても 1 回）',
    signIn: true,
  },
  { method: 'delete', path: '/likes/:kind/:id', summary: 'いいねを取り消す', signIn: true },
  {
    method: 'get',
    path: '/comments/:kind/:id',
    summary: 'コメント一覧（新しい順、返信つき）',
    query: pageQuery,
  },
  {
    method: 'post',
    path: '/comments/:kind/:id',
    summary: 'コメント・返信を投稿（Markdown）',
    body: newComment,
    status: 201,
    signIn: true,
  },
  {
    method: 'put',
    path: '/comments/:commentId',
    summary: 'コメントを編集（投稿者のみ）',
    body: commentUpdate,
    signIn: true,
  },
  {
    method: 'delete',
    path: '/comments/:commentId',
    summary: 'コメントを削除（投稿者・コンテンツの作成者・管理者）',
    status: 204,
    signIn: true,
  },
  {
    method: 'get',
    path: '/notifications',
    summary: '自分への通知（新しい順）',
    query: pageQuery,
    signIn: true,
  },
  {
    method: 'get',
    path: '/notifications/unread-count',
    summary: '未読の通知の数',
    signIn: true,
  },
  { method: 'post', path: '/notifications/read', summary: '通知をすべて既読にする', signIn: true },
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

/** The routes of an authored kind (server/api/editable-routes.ts). */
function editableOperations(kind: {
  collection: string
  idName: string
  label: string
  fields: z.ZodType
  update: z.ZodType
}): Operation[] {
  const { collection, label } = kind
  const item = `${collection}/:${kind.idName}`
  return [
    { method: 'get', path: collection, summary: `公開中の${label}一覧`, query: studyListQuery },
    {
      method: 'get',
      path: `/users/:username${collection}`,
      summary: `ユーザーの公開中の${label}一覧`,
      query: studyListQuery,
    },
    { method: 'get', path: `/users/:username${item}`, summary: label },
    {
      method: 'post',
      path: collection,
      summary: `${label}を作成（下書き）`,
      body: kind.fields,
      status: 201,
      signIn: true,
    },
    { method: 'get', path: `${item}/draft`, summary: `編集用の${label}`, signIn: true },
    {
      method: 'put',
      path: item,
      summary: `${label}を更新（revision が古ければ 409）`,
      body: kind.update,
      signIn: true,
    },
    {
      method: 'post',
      path: `${item}/publish`,
      summary: `${label}を公開`,
      body: basedOnRevision,
      signIn: true,
    },
    {
      method: 'post',
      path: `${item}/unpublish`,
      summary: `${label}を非公開に戻す`,
      body: basedOnRevision,
      signIn: true,
    },
    { method: 'delete', path: item, summary: `${label}を削除`, status: 204, signIn: true },
  ]
}

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
    ...(operation.signIn && { security: [{ session: [] }, { bearer: [] }] }),
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
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'ユーザープールのアクセストークン（ブラウザ以外のクライアント向け）',
        },
      },
    },
    paths,
  }
}
