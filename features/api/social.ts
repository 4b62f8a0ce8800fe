import { z } from 'zod'
import { pageOf } from '#features/content-views.ts'
import { pageQuery } from '#features/pagination.ts'
import { commentUpdate, newComment } from '#features/social/comment-input.ts'
import {
  commentPage,
  commentView,
  likeState,
  notificationView,
  unreadCount,
} from '#features/social/social-views.ts'
import { subjectSchema } from '#features/social/subject.ts'
import { noContent, pathId, route } from './contract.ts'

const commentParams = z.object({ commentId: pathId })

/** Likes, comments and notifications; items are addressed by content kind and id. */
export const socialRoutes = {
  likes: route({
    method: 'GET',
    path: '/likes/:kind/:id',
    summary: 'いいねの数と自分のいいね',
    params: subjectSchema,
    status: 200,
    response: likeState,
  }),
  like: route({
    method: 'PUT',
    path: '/likes/:kind/:id',
    summary: 'いいねする（何度しても 1 回）',
    signIn: true,
    params: subjectSchema,
    status: 200,
    response: likeState,
  }),
  unlike: route({
    method: 'DELETE',
    path: '/likes/:kind/:id',
    summary: 'いいねを取り消す',
    signIn: true,
    params: subjectSchema,
    status: 200,
    response: likeState,
  }),
  comments: route({
    method: 'GET',
    path: '/comments/:kind/:id',
    summary: 'コメント一覧（新しい順、返信つき）',
    params: subjectSchema,
    query: pageQuery,
    status: 200,
    response: commentPage,
  }),
  postComment: route({
    method: 'POST',
    path: '/comments/:kind/:id',
    summary: 'コメント・返信を投稿（Markdown）',
    signIn: true,
    params: subjectSchema,
    body: newComment,
    status: 201,
    response: commentView,
  }),
  updateComment: route({
    method: 'PUT',
    path: '/comments/:commentId',
    summary: 'コメントを編集（投稿者のみ）',
    signIn: true,
    params: commentParams,
    body: commentUpdate,
    status: 200,
    response: commentView,
  }),
  deleteComment: route({
    method: 'DELETE',
    path: '/comments/:commentId',
    summary: 'コメントを削除（投稿者・コンテンツの作成者・管理者）',
    signIn: true,
    params: commentParams,
    status: 204,
    response: noContent,
  }),
  notifications: route({
    method: 'GET',
    path: '/notifications',
    summary: '自分への通知（新しい順）',
    signIn: true,
    query: pageQuery,
    status: 200,
    response: pageOf(notificationView),
  }),
  unreadCount: route({
    method: 'GET',
    path: '/notifications/unread-count',
    summary: '未読の通知の数',
    signIn: true,
    status: 200,
    response: unreadCount,
  }),
  markRead: route({
    method: 'POST',
    path: '/notifications/read',
    summary: '通知をすべて既読にする',
    signIn: true,
    status: 200,
    response: unreadCount,
  }),
}
