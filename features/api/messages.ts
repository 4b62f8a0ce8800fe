import { z } from 'zod'
import { pageOf } from '#features/content-views.ts'
import {
  digestSetting,
  messageUpdate,
  newMessage,
  olderMessagesQuery,
  readMarker,
  roomChangesQuery,
  roomListQuery,
  roomWith,
} from '#features/messages/message-input.ts'
import {
  digestState,
  dmUnread,
  messagePage,
  messageView,
  muteState,
  readState,
  roomChanges,
  roomSummary,
  roomView,
} from '#features/messages/message-views.ts'
import { noContent, pathId, route } from './contract.ts'

const roomParams = z.object({ roomId: pathId })
const messageParams = z.object({ messageId: pathId })

/**
 * A message body is at most 2,000 characters: 32 KiB of JSON holds that however it is escaped,
 * and anything larger is refused (413) before it is read into memory.
 */
export const MESSAGE_BODY_LIMIT = 32 * 1024

/** Direct messages: rooms of two members, their messages and read markers (404 to others). */
export const messageRoutes = {
  rooms: route({
    method: 'GET',
    path: '/dms/rooms',
    summary: '自分のメッセージルーム（新しいメッセージ順、未読数つき）',
    signIn: true,
    query: roomListQuery,
    status: 200,
    response: pageOf(roomSummary),
  }),
  openRoom: route({
    method: 'POST',
    path: '/dms/rooms',
    summary: 'ユーザーとのメッセージルームを開く（あれば同じルーム）',
    signIn: true,
    body: roomWith,
    status: 200,
    response: z.object({ id: z.string(), created: z.boolean() }),
  }),
  room: route({
    method: 'GET',
    path: '/dms/rooms/:roomId',
    summary: 'メッセージルーム（相手・既読位置・バージョン）',
    signIn: true,
    params: roomParams,
    status: 200,
    response: roomView,
  }),
  messages: route({
    method: 'GET',
    path: '/dms/rooms/:roomId/messages',
    summary: 'ルームのメッセージ（before より前、古い順）',
    signIn: true,
    params: roomParams,
    query: olderMessagesQuery,
    status: 200,
    response: messagePage,
  }),
  changes: route({
    method: 'GET',
    path: '/dms/rooms/:roomId/changes',
    summary: 'after のバージョンより後の変更（新着・編集・削除と既読位置）',
    signIn: true,
    params: roomParams,
    query: roomChangesQuery,
    status: 200,
    response: roomChanges,
  }),
  send: route({
    method: 'POST',
    path: '/dms/rooms/:roomId/messages',
    summary: 'メッセージを送る（2,000 文字まで、保存してから応答）',
    signIn: true,
    params: roomParams,
    body: newMessage,
    bodyLimit: MESSAGE_BODY_LIMIT,
    status: 201,
    response: messageView,
  }),
  edit: route({
    method: 'PUT',
    path: '/dms/messages/:messageId',
    summary: '自分のメッセージを編集（送信から 10 分以内）',
    signIn: true,
    params: messageParams,
    body: messageUpdate,
    bodyLimit: MESSAGE_BODY_LIMIT,
    status: 200,
    response: messageView,
  }),
  remove: route({
    method: 'DELETE',
    path: '/dms/messages/:messageId',
    summary: '自分のメッセージを削除（送信から 10 分以内）',
    signIn: true,
    params: messageParams,
    status: 200,
    response: messageView,
  }),
  read: route({
    method: 'POST',
    path: '/dms/rooms/:roomId/read',
    summary: 'seq のメッセージまで読んだことにする（戻りはしない）',
    signIn: true,
    params: roomParams,
    body: readMarker,
    status: 200,
    response: readState,
  }),
  typing: route({
    method: 'POST',
    path: '/dms/rooms/:roomId/typing',
    summary: '入力中であることを相手に知らせる',
    signIn: true,
    params: roomParams,
    status: 204,
    response: noContent,
  }),
  mute: route({
    method: 'PUT',
    path: '/dms/rooms/:roomId/mute',
    summary: 'ルームの通知をオフ・オンにする（未読数とメールに数えない）',
    signIn: true,
    params: roomParams,
    body: muteState,
    status: 200,
    response: muteState,
  }),
  unread: route({
    method: 'GET',
    path: '/dms/unread-count',
    summary: '未読メッセージの数',
    signIn: true,
    status: 200,
    response: dmUnread,
  }),
  digest: route({
    method: 'GET',
    path: '/dms/digest',
    summary: '未読メッセージのメールまとめの設定',
    signIn: true,
    status: 200,
    response: digestState,
  }),
  setDigest: route({
    method: 'PUT',
    path: '/dms/digest',
    summary: '未読メッセージのメールまとめをオン・オフする',
    signIn: true,
    body: digestSetting,
    status: 200,
    response: digestState,
  }),
}
