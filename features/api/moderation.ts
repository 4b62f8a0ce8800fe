import { z } from 'zod'
import {
  moderationActionInput,
  moderationItemView,
  queueEntry,
  queueStatus,
} from '#features/moderation/moderation-views.ts'
import {
  moderationSubjectKind,
  reportInput,
  reportReceipt,
} from '#features/moderation/report-input.ts'
import { noContent, pathId, route } from './contract.ts'

const itemParams = z.object({ kind: moderationSubjectKind, id: pathId })

/** Reports (any signed-in user) and moderation (the `admin` group only: 403 to anyone else). */
export const moderationRoutes = {
  report: route({
    method: 'POST',
    path: '/reports',
    summary: 'メッセージ・ユーザー・コンテンツを報告する（同じ対象への未対応の報告は更新）',
    signIn: true,
    body: reportInput,
    bodyLimit: 16 * 1024,
    status: 200,
    response: reportReceipt,
  }),
  queue: route({
    method: 'GET',
    path: '/admin/reports',
    summary: '報告された対象（管理者のみ、新しい報告順）',
    signIn: true,
    query: z.object({ status: queueStatus.default('open') }),
    status: 200,
    response: z.object({ items: z.array(queueEntry) }),
  }),
  item: route({
    method: 'GET',
    path: '/admin/reports/:kind/:id',
    summary: '報告された対象・報告・対応履歴（管理者のみ）',
    signIn: true,
    params: itemParams,
    status: 200,
    response: moderationItemView,
  }),
  act: route({
    method: 'POST',
    path: '/admin/reports/:kind/:id/actions',
    summary: '非表示・再表示・利用停止・解除・却下（管理者のみ、記録される）',
    signIn: true,
    params: itemParams,
    body: moderationActionInput,
    bodyLimit: 16 * 1024,
    status: 204,
    response: noContent,
  }),
}
