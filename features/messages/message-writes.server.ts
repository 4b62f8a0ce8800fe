import type { Kysely } from 'kysely'
import type { z } from 'zod'
import { newContentId } from '#db/ids.ts'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import { actingUser } from '#features/social/subjects.server.ts'
import { MESSAGE_EDIT_WINDOW_MS, messageUpdate, newMessage } from './message-input.ts'
import type { MessageView } from './message-views.ts'
import {
  type MessageOptions,
  memberRoom,
  messageRows,
  messagesOfMember,
  messageView,
  nextVersion,
  publishAll,
} from './room-access.server.ts'

const MESSAGE_NOT_FOUND = 'メッセージが見つかりません'

/**
 * Stores a message in a room the actor belongs to; it is committed before this answers, and
 * only then published to both members. The sender has read everything up to it.
 */
export async function sendMessage(
  db: Kysely<DB>,
  actor: Actor | undefined,
  roomId: string,
  input: z.input<typeof newMessage>,
  options: MessageOptions = {},
): Promise<MessageView> {
  const now = options.now ?? Date.now()
  const { body } = parseInput(newMessage, input)
  const sender = await actingUser(db, actor)
  const { message, memberIds } = await db.transaction().execute(async (trx) => {
    const room = await memberRoom(trx, sender, roomId)
    const version = await nextVersion(trx, roomId, now)
    const id = newContentId()
    await trx
      .insertInto('dm_messages')
      .values({
        id,
        room_id: roomId,
        seq: version,
        version,
        sender_id: sender.userId,
        body,
        created_at: now,
        // Stored for the sender (who is not told), never shown to a recipient who blocks them.
        withheld: room.blockedByOther ? 1 : 0,
      })
      .execute()
    await trx
      .updateTable('dm_members')
      .set({ read_seq: version })
      .where('room_id', '=', roomId)
      .where('user_id', '=', sender.userId)
      .execute()
    const row = await messageRows(trx).where('dm_messages.id', '=', id).executeTakeFirstOrThrow()
    return {
      message: messageView(row, sender.userId),
      memberIds: room.blockedByOther ? [sender.userId] : [sender.userId, room.otherId],
    }
  })
  publishAll(options.publish, memberIds, [
    { type: 'message.created', data: { roomId, message } },
    { type: 'room.read', data: { roomId, username: message.sender, seq: message.seq } },
  ])
  return message
}

/** The actor's own message, still within its edit window; locks the room's counter for the change. */
async function ownEditableMessage(trx: Kysely<DB>, actor: Actor, messageId: string, now: number) {
  const row = await messagesOfMember(trx, actor.userId)
    .select([
      'dm_messages.room_id',
      'dm_messages.sender_id',
      'dm_messages.created_at',
      'dm_messages.deleted_at',
      'dm_messages.hidden_at',
    ])
    .where('dm_messages.id', '=', messageId)
    .executeTakeFirst()
  if (!row) throw ContentError.notFound(MESSAGE_NOT_FOUND)
  if (row.hidden_at !== null) {
    throw new ContentError('CONFLICT', 'このメッセージは運営により非表示になっています')
  }
  if (row.sender_id !== actor.userId) {
    throw new ContentError('FORBIDDEN', '自分のメッセージだけを編集・削除できます')
  }
  if (row.deleted_at !== null)
    throw new ContentError('CONFLICT', 'このメッセージは削除されています')
  if (now >= Number(row.created_at) + MESSAGE_EDIT_WINDOW_MS) {
    throw new ContentError('LOCKED', '送信から10分を過ぎたメッセージは編集・削除できません')
  }
  return row
}

async function changeMessage(
  db: Kysely<DB>,
  actor: Actor | undefined,
  messageId: string,
  change: { body: string; edited: boolean },
  options: MessageOptions,
): Promise<MessageView> {
  const now = options.now ?? Date.now()
  const editor = await actingUser(db, actor)
  const { message, memberIds } = await db.transaction().execute(async (trx) => {
    const { room_id: roomId } = await ownEditableMessage(trx, editor, messageId, now)
    const version = await nextVersion(trx, roomId)
    await trx
      .updateTable('dm_messages')
      .set(
        change.edited
          ? { body: change.body, edited_at: now, version }
          : { body: '', deleted_at: now, version },
      )
      .where('id', '=', messageId)
      .execute()
    const members = await trx
      .selectFrom('dm_members')
      .select('user_id')
      .where('room_id', '=', roomId)
      .execute()
    const row = await messageRows(trx)
      .select('dm_messages.withheld')
      .where('dm_messages.id', '=', messageId)
      .executeTakeFirstOrThrow()
    const memberIds = members.map((member) => member.user_id)
    return {
      message: messageView(row, editor.userId),
      memberIds: Number(row.withheld) === 1 ? [editor.userId] : memberIds,
    }
  })
  publishAll(options.publish, memberIds, [
    {
      type: change.edited ? 'message.updated' : 'message.deleted',
      data: { roomId: message.roomId, message },
    },
  ])
  return message
}

/** The sender rewrites their message within 10 minutes of sending it (shown 編集済み). */
export async function editMessage(
  db: Kysely<DB>,
  actor: Actor | undefined,
  messageId: string,
  input: z.input<typeof messageUpdate>,
  options: MessageOptions = {},
): Promise<MessageView> {
  const { body } = parseInput(messageUpdate, input)
  return changeMessage(db, actor, messageId, { body, edited: true }, options)
}

/** The sender deletes their message within 10 minutes (shown 削除されました; the text is gone). */
export async function deleteMessage(
  db: Kysely<DB>,
  actor: Actor | undefined,
  messageId: string,
  options: MessageOptions = {},
): Promise<MessageView> {
  return changeMessage(db, actor, messageId, { body: '', edited: false }, options)
}
