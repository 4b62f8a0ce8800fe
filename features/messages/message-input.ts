import { z } from 'zod'
import { pageQuery } from '#features/pagination.ts'

/** A direct message is a chat line, not an article: long texts belong in a study or a story. */
export const MESSAGE_MAX_LENGTH = 2_000

/** How long the sender may still edit or delete a message. */
export const MESSAGE_EDIT_WINDOW_MS = 10 * 60 * 1000

export const MESSAGE_TOO_LONG = `メッセージは${MESSAGE_MAX_LENGTH.toLocaleString('ja-JP')}文字以内で入力してください`

/**
 * Plain text: kept as typed (line breaks included), only blank lines around it trimmed. Counted
 * in UTF-16 units like the textarea's maxLength, so the form and the server agree.
 */
export const messageBody = z
  .string({ error: 'メッセージを文字列で入力してください' })
  .trim()
  .min(1, 'メッセージを入力してください')
  .max(MESSAGE_MAX_LENGTH, MESSAGE_TOO_LONG)

export const newMessage = z.object({ body: messageBody })
export const messageUpdate = z.object({ body: messageBody })

/** Starting (or reopening) the room with one other user. */
export const roomWith = z.object({
  username: z
    .string({ error: 'ユーザー名を入力してください' })
    .trim()
    .min(1, 'ユーザー名を入力してください')
    .max(64, 'ユーザーが見つかりません'),
})

const position = (message: string) =>
  z.coerce.number({ error: message }).int(message).min(0, message).max(Number.MAX_SAFE_INTEGER)

/** How far a member has read: the seq of the last message they saw. */
export const readMarker = z.object({ seq: position('既読の位置は 0 以上の整数で指定してください') })

export const MESSAGE_PAGE_SIZE = 30
const pageSize = z.coerce
  .number({ error: '件数は 1 から 50 までの整数で指定してください' })
  .int('件数は 1 から 50 までの整数で指定してください')
  .min(1, '件数は 1 から 50 までの整数で指定してください')
  .max(50, '件数は 1 から 50 までの整数で指定してください')
  .default(MESSAGE_PAGE_SIZE)

/** A room's messages before a seq (older ones, for scrolling up), newest of them last. */
export const olderMessagesQuery = z.object({
  before: position('位置は 0 以上の整数で指定してください').optional(),
  limit: pageSize,
})

/** Catch-up: everything in a room that changed after the version a client last saw. */
export const roomChangesQuery = z.object({
  after: position('バージョンは 0 以上の整数で指定してください'),
})

/** /dms: rooms with activity after a time (ms), for clients catching up; all rooms without it. */
export const roomListQuery = pageQuery.extend({
  since: position('時刻は 0 以上の整数で指定してください').optional(),
})

export const digestSetting = z.object({
  digest: z.boolean({ error: 'オンかオフを選んでください' }),
})
