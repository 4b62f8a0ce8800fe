import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely'
import type { z } from 'zod'
import { newContentId } from '#db/ids.ts'
import type { DB, DmMessagesTable } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import { afterCursor } from '#features/pagination.server.ts'
import { type Page, pageFrom } from '#features/pagination.ts'
import { actingUser } from '#features/social/subjects.server.ts'
import { blocks } from '#features/users/blocks.server.ts'
import { userIdOf } from '#features/users/profiles.server.ts'
import type { MessageEvent, Publish } from './events.ts'
import {
  MESSAGE_EDIT_WINDOW_MS,
  messageUpdate,
  newMessage,
  olderMessagesQuery,
  readMarker,
  roomChangesQuery,
  roomListQuery,
  roomWith,
} from './message-input.ts'
import type {
  DmUser,
  MessagePage,
  MessageView,
  RoomChanges,
  RoomSummary,
  RoomView,
} from './message-views.ts'

export type { MessagePage, MessageView, RoomChanges, RoomSummary, RoomView }

/** When the change happened, and where its events go once it is committed. */
export type MessageOptions = { now?: number; publish?: Publish }

/** Catch-up answers at most this many changes at once; the client asks again for the rest. */
export const MAX_CHANGES = 200

const ROOM_NOT_FOUND = 'メッセージルームが見つかりません'
const MESSAGE_NOT_FOUND = 'メッセージが見つかりません'

/** A room as a member sees it, with the other member's id (for publishing; never sent). */
type MemberRoom = RoomView & { otherId: string; blockedByOther: boolean }

/** Messages a member sees: all but those withheld from them (sent while they blocked the sender). */
function visibleTo(userId: string) {
  return (eb: ExpressionBuilder<DB, 'dm_messages'>) =>
    eb.or([eb('dm_messages.withheld', '=', 0), eb('dm_messages.sender_id', '=', userId)])
}

/** Rooms hidden from their member (`me`): those with someone (`them`) the member blocks. */
function notBlockedBy(eb: ExpressionBuilder<DB, 'dm_rooms'>) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom('user_blocks')
        .select('user_blocks.blocker_id')
        .where('user_blocks.blocker_id', '=', sql.ref<string>('me.user_id'))
        .where('user_blocks.blocked_id', '=', sql.ref<string>('them.user_id')),
    ),
  )
}

type MessageRow = Pick<
  Selectable<DmMessagesTable>,
  | 'id'
  | 'room_id'
  | 'seq'
  | 'version'
  | 'body'
  | 'created_at'
  | 'edited_at'
  | 'deleted_at'
  | 'sender_id'
  | 'hidden_at'
  | 'hidden_reason'
> & { sender: string }

/** The message as `viewerId` sees it: hidden by moderation, only its sender keeps the text. */
function messageView(row: MessageRow, viewerId: string): MessageView {
  const hidden = row.hidden_at !== null
  const ownHidden = hidden && row.sender_id === viewerId
  return {
    id: row.id,
    roomId: row.room_id,
    seq: Number(row.seq),
    version: Number(row.version),
    sender: row.sender,
    body: row.deleted_at === null && (!hidden || ownHidden) ? row.body : '',
    createdAt: Number(row.created_at),
    editedAt: row.edited_at === null ? null : Number(row.edited_at),
    deleted: row.deleted_at !== null,
    hidden,
    hiddenReason: ownHidden ? (row.hidden_reason ?? '') : null,
    editableUntil: Number(row.created_at) + MESSAGE_EDIT_WINDOW_MS,
  }
}

function messageRows(db: Kysely<DB>) {
  return db
    .selectFrom('dm_messages')
    .innerJoin('users', 'users.id', 'dm_messages.sender_id')
    .select([
      'dm_messages.id',
      'dm_messages.room_id',
      'dm_messages.seq',
      'dm_messages.version',
      'dm_messages.body',
      'dm_messages.created_at',
      'dm_messages.edited_at',
      'dm_messages.deleted_at',
      'dm_messages.sender_id',
      'dm_messages.hidden_at',
      'dm_messages.hidden_reason',
      'users.username as sender',
    ])
}

/**
 * The room as one of its members sees it: the other member and both read markers. Anyone else
 * (a stranger, a guest's forged id, an admin) gets "not found", so a room's existence is private.
 */
async function memberRoom(db: Kysely<DB>, actor: Actor, roomId: string): Promise<MemberRoom> {
  const row = await db
    .selectFrom('dm_rooms')
    .innerJoin('dm_members as me', (join) =>
      join.onRef('me.room_id', '=', 'dm_rooms.id').on('me.user_id', '=', actor.userId),
    )
    .innerJoin('dm_members as them', (join) =>
      join.onRef('them.room_id', '=', 'dm_rooms.id').on('them.user_id', '<>', actor.userId),
    )
    .innerJoin('users', 'users.id', 'them.user_id')
    .select([
      'dm_rooms.id',
      'dm_rooms.version',
      'me.read_seq',
      'me.muted',
      'them.read_seq as other_read_seq',
      'users.id as other_id',
      'users.username',
      'users.display_name',
      'users.avatar_key',
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('user_blocks')
              .select('user_blocks.blocker_id')
              .whereRef('user_blocks.blocker_id', '=', 'them.user_id')
              .whereRef('user_blocks.blocked_id', '=', 'me.user_id'),
          )
          .as('blocked_by_other'),
    ])
    .where('dm_rooms.id', '=', roomId)
    .where((eb) => notBlockedBy(eb))
    .executeTakeFirst()
  if (!row) throw ContentError.notFound(ROOM_NOT_FOUND)
  return {
    id: row.id,
    other: dmUser(row),
    version: Number(row.version),
    readSeq: Number(row.read_seq),
    otherReadSeq: Number(row.other_read_seq),
    muted: Number(row.muted) === 1,
    otherId: row.other_id,
    blockedByOther: Boolean(row.blocked_by_other),
  }
}

function dmUser(row: { username: string; display_name: string; avatar_key: string | null }) {
  return {
    username: row.username,
    displayName: row.display_name,
    avatarKey: row.avatar_key,
  } satisfies DmUser
}

/** The messages of the rooms `userId` belongs to, each beside that user's membership row. */
export function messagesOfMember(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('dm_messages')
    .innerJoin('dm_members', (join) =>
      join
        .onRef('dm_members.room_id', '=', 'dm_messages.room_id')
        .on('dm_members.user_id', '=', userId),
    )
}

async function usernameOf(db: Kysely<DB>, userId: string): Promise<string> {
  const row = await db
    .selectFrom('users')
    .select('username')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  return row.username
}

function requireActor(actor: Actor | undefined): Actor {
  if (!actor) throw ContentError.signInRequired()
  return actor
}

/** What publishes after a commit: a listener's failure never undoes or fails a stored message. */
function publishAll(publish: Publish | undefined, userIds: string[], events: MessageEvent[]) {
  if (!publish) return
  for (const event of events) {
    try {
      publish(userIds, event)
    } catch {
      // Realtime is a courtesy: clients catch up from /api (roomChanges).
    }
  }
}

/**
 * Opens the room of `actor` and `username`, creating it on first use: one room per pair (the
 * pair's unique constraint decides between two tabs racing). Answers its id.
 */
export async function openRoom(
  db: Kysely<DB>,
  actor: Actor | undefined,
  input: z.input<typeof roomWith>,
  now = Date.now(),
): Promise<{ id: string; created: boolean }> {
  const { username } = parseInput(roomWith, input)
  const me = await actingUser(db, actor)
  const otherId = await userIdOf(db, username)
  if (otherId === me.userId) {
    throw new ContentError('VALIDATION_FAILED', '自分自身にはメッセージを送れません', {
      username: ['自分自身にはメッセージを送れません'],
    })
  }
  if (await blocks(db, me.userId, otherId)) {
    throw new ContentError(
      'FORBIDDEN',
      'ブロックしているユーザーとはメッセージできません。プロフィールでブロックを解除してください',
    )
  }
  const [low, high] = me.userId < otherId ? [me.userId, otherId] : [otherId, me.userId]
  return db.transaction().execute(async (trx) => {
    const id = newContentId()
    const inserted = await trx
      .insertInto('dm_rooms')
      .values({ id, user_low: low, user_high: high, activity_at: now, created_at: now })
      .onConflict((conflict) => conflict.columns(['user_low', 'user_high']).doNothing())
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) {
      await trx
        .insertInto('dm_members')
        .values([
          { room_id: id, user_id: me.userId },
          { room_id: id, user_id: otherId },
        ])
        .execute()
      return { id, created: true }
    }
    const existing = await trx
      .selectFrom('dm_rooms')
      .select('id')
      .where('user_low', '=', low)
      .where('user_high', '=', high)
      .executeTakeFirstOrThrow()
    return { id: existing.id, created: false }
  })
}

/** The room's page header: the other member, read markers and version (404 to non-members). */
export async function readRoom(
  db: Kysely<DB>,
  actor: Actor | undefined,
  roomId: string,
): Promise<RoomView> {
  const {
    otherId: _,
    blockedByOther: __,
    ...room
  } = await memberRoom(db, requireActor(actor), roomId)
  return room
}

/** A room's messages before `before` (the newest ones without it), oldest first. */
export async function listMessages(
  db: Kysely<DB>,
  actor: Actor | undefined,
  roomId: string,
  queryInput: z.input<typeof olderMessagesQuery>,
): Promise<MessagePage> {
  const query = parseInput(olderMessagesQuery, queryInput)
  const reader = requireActor(actor)
  await memberRoom(db, reader, roomId)
  let rows = messageRows(db)
    .where('dm_messages.room_id', '=', roomId)
    .where(visibleTo(reader.userId))
  if (query.before !== undefined) rows = rows.where('dm_messages.seq', '<', query.before)
  const newestFirst = await rows
    .orderBy('dm_messages.seq', 'desc')
    .limit(query.limit + 1)
    .execute()
  return {
    items: newestFirst
      .slice(0, query.limit)
      .reverse()
      .map((row) => messageView(row, reader.userId)),
    hasOlder: newestFirst.length > query.limit,
  }
}

/**
 * Everything that changed in a room after `after` (a version the client saw): new, edited and
 * deleted messages in the order they changed, and both read markers. Polling and reconnecting
 * clients call it; at most MAX_CHANGES at once.
 */
export async function listRoomChanges(
  db: Kysely<DB>,
  actor: Actor | undefined,
  roomId: string,
  queryInput: z.input<typeof roomChangesQuery>,
): Promise<RoomChanges> {
  const { after } = parseInput(roomChangesQuery, queryInput)
  const reader = requireActor(actor)
  const room = await memberRoom(db, reader, roomId)
  const rows = await messageRows(db)
    .where('dm_messages.room_id', '=', roomId)
    .where('dm_messages.version', '>', after)
    .where(visibleTo(reader.userId))
    .orderBy('dm_messages.version')
    .limit(MAX_CHANGES + 1)
    .execute()
  const messages = rows.slice(0, MAX_CHANGES).map((row) => messageView(row, reader.userId))
  const more = rows.length > MAX_CHANGES
  return {
    version: more ? (messages.at(-1)?.version ?? after) : Math.max(room.version, after),
    messages,
    more,
    readSeq: room.readSeq,
    otherReadSeq: room.otherReadSeq,
  }
}

/** Takes the room's next change number (and, for a new message, its activity time). */
async function nextVersion(trx: Kysely<DB>, roomId: string, activityAt?: number): Promise<number> {
  const row = await trx
    .updateTable('dm_rooms')
    .set((eb) => ({
      version: eb('version', '+', 1),
      ...(activityAt !== undefined && { activity_at: activityAt }),
    }))
    .where('id', '=', roomId)
    .returning('version')
    .executeTakeFirstOrThrow()
  return Number(row.version)
}

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

/**
 * The actor has seen the room up to `seq` (the last message visible on their screen). A marker
 * never moves back (an older tab reporting late changes nothing) nor past the room's last change.
 */
export async function markRoomRead(
  db: Kysely<DB>,
  actor: Actor | undefined,
  roomId: string,
  input: z.input<typeof readMarker>,
  options: Pick<MessageOptions, 'publish'> = {},
): Promise<{ readSeq: number; unread: number }> {
  const { seq } = parseInput(readMarker, input)
  const reader = requireActor(actor)
  const room = await memberRoom(db, reader, roomId)
  const target = Math.min(seq, room.version)
  const moved = await db
    .updateTable('dm_members')
    .set({ read_seq: target })
    .where('room_id', '=', roomId)
    .where('user_id', '=', reader.userId)
    .where('read_seq', '<', target)
    .executeTakeFirst()
  const readSeq = Math.max(room.readSeq, target)
  if (Number(moved.numUpdatedRows) > 0) {
    const username = await usernameOf(db, reader.userId)
    publishAll(
      options.publish,
      [reader.userId, room.otherId],
      [{ type: 'room.read', data: { roomId, username, seq: readSeq } }],
    )
  }
  return { readSeq, unread: await countUnreadMessages(db, reader.userId) }
}

/** Says to the other member that the actor is typing (nothing is stored). */
export async function announceTyping(
  db: Kysely<DB>,
  actor: Actor | undefined,
  roomId: string,
  options: Pick<MessageOptions, 'publish'> = {},
): Promise<void> {
  const typist = requireActor(actor)
  const room = await memberRoom(db, typist, roomId)
  if (room.blockedByOther) return
  const username = await usernameOf(db, typist.userId)
  publishAll(options.publish, [room.otherId], [{ type: 'typing', data: { roomId, username } }])
}

/**
 * Of a member's messages, the unread ones: from the other member, not deleted, not withheld,
 * after the member's read marker, and not from someone the member blocks.
 */
export function unreadFromOthers(userId: string) {
  return (eb: ExpressionBuilder<DB, 'dm_messages' | 'dm_members'>) =>
    eb.and([
      eb('dm_messages.seq', '>', eb.ref('dm_members.read_seq')),
      eb('dm_messages.sender_id', '<>', userId),
      eb('dm_messages.deleted_at', 'is', null),
      eb('dm_messages.withheld', '=', 0),
      eb('dm_messages.hidden_at', 'is', null),
      eb.not(
        eb.exists(
          eb
            .selectFrom('user_blocks')
            .select('user_blocks.blocker_id')
            .where('user_blocks.blocker_id', '=', userId)
            .whereRef('user_blocks.blocked_id', '=', 'dm_messages.sender_id'),
        ),
      ),
    ])
}

/** Messages from others, not deleted, after the member's read marker: the header's and /dms' count. */
export async function countUnreadMessages(db: Kysely<DB>, userId: string): Promise<number> {
  const row = await messagesOfMember(db, userId)
    .where(unreadFromOthers(userId))
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    // Muted rooms raise no count.
    .where('dm_members.muted', '=', 0)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** The signed-in user's unread count, for /api. */
export async function readUnreadMessages(
  db: Kysely<DB>,
  actor: Actor | undefined,
): Promise<{ unread: number }> {
  return { unread: await countUnreadMessages(db, requireActor(actor).userId) }
}

/**
 * /dms: the actor's rooms, latest activity first, with the other member, the last message and
 * the unread count; `since` keeps only rooms with activity after it (a client catching up).
 */
export async function listRooms(
  db: Kysely<DB>,
  actor: Actor | undefined,
  queryInput: z.input<typeof roomListQuery>,
): Promise<Page<RoomSummary>> {
  const query = parseInput(roomListQuery, queryInput)
  const me = requireActor(actor)
  let rooms = db
    .selectFrom('dm_members as me')
    .innerJoin('dm_rooms', 'dm_rooms.id', 'me.room_id')
    .innerJoin('dm_members as them', (join) =>
      join.onRef('them.room_id', '=', 'me.room_id').on('them.user_id', '<>', me.userId),
    )
    .innerJoin('users', 'users.id', 'them.user_id')
    .select((eb) => [
      'dm_rooms.id',
      'dm_rooms.activity_at',
      'users.username',
      'users.display_name',
      'users.avatar_key',
      'me.muted',
      eb
        .selectFrom('dm_messages')
        .select((inner) => inner.fn.countAll<number | string>().as('n'))
        .whereRef('dm_messages.room_id', '=', 'dm_rooms.id')
        .whereRef('dm_messages.seq', '>', 'me.read_seq')
        .where('dm_messages.sender_id', '<>', me.userId)
        .where('dm_messages.deleted_at', 'is', null)
        .where('dm_messages.withheld', '=', 0)
        .where('dm_messages.hidden_at', 'is', null)
        .as('unread'),
      eb
        .selectFrom('dm_messages')
        .select('dm_messages.id')
        .whereRef('dm_messages.room_id', '=', 'dm_rooms.id')
        .where(visibleTo(me.userId))
        .orderBy('dm_messages.seq', 'desc')
        .limit(1)
        .as('last_message_id'),
    ])
    .where('me.user_id', '=', me.userId)
    .where((eb) => notBlockedBy(eb))
  if (query.since !== undefined) rooms = rooms.where('dm_rooms.activity_at', '>', query.since)
  if (query.cursor) {
    rooms = rooms.where(afterCursor(query.cursor, 'dm_rooms.activity_at', 'dm_rooms.id'))
  }
  const page = pageFrom(
    await rooms
      .orderBy('dm_rooms.activity_at', 'desc')
      .orderBy('dm_rooms.id', 'desc')
      .limit(query.limit + 1)
      .execute(),
    query.limit,
    (row) => ({ at: Number(row.activity_at), id: row.id }),
  )
  const lastIds = page.items.flatMap((row) => (row.last_message_id ? [row.last_message_id] : []))
  const lastMessages = new Map(
    lastIds.length === 0
      ? []
      : (await messageRows(db).where('dm_messages.id', 'in', lastIds).execute()).map((row) => [
          row.id,
          messageView(row, me.userId),
        ]),
  )
  return {
    items: page.items.map((row) => ({
      id: row.id,
      other: dmUser(row),
      lastMessage: (row.last_message_id && lastMessages.get(row.last_message_id)) || null,
      unread: Number(row.unread ?? 0),
      muted: Number(row.muted) === 1,
      activityAt: Number(row.activity_at),
    })),
    nextCursor: page.nextCursor,
  }
}

/** The member mutes (or unmutes) the room: it then raises no header count and no digest. */
export async function setRoomMuted(
  db: Kysely<DB>,
  actor: Actor | undefined,
  roomId: string,
  muted: boolean,
): Promise<{ muted: boolean }> {
  const member = requireActor(actor)
  await memberRoom(db, member, roomId)
  await db
    .updateTable('dm_members')
    .set({ muted: muted ? 1 : 0 })
    .where('room_id', '=', roomId)
    .where('user_id', '=', member.userId)
    .execute()
  return { muted }
}

/** Whether the user wants the e-mail digest of unread messages (off unless turned on). */
export async function readDigestSetting(
  db: Kysely<DB>,
  actor: Actor | undefined,
): Promise<{ digest: boolean }> {
  const row = await db
    .selectFrom('users')
    .select('dm_digest')
    .where('id', '=', requireActor(actor).userId)
    .executeTakeFirst()
  if (!row) throw ContentError.signInRequired()
  return { digest: Number(row.dm_digest) === 1 }
}

export async function updateDigestSetting(
  db: Kysely<DB>,
  actor: Actor | undefined,
  digest: boolean,
): Promise<{ digest: boolean }> {
  const updated = await db
    .updateTable('users')
    .set({ dm_digest: digest ? 1 : 0 })
    .where('id', '=', requireActor(actor).userId)
    .executeTakeFirst()
  if (Number(updated.numUpdatedRows) === 0) throw ContentError.signInRequired()
  return { digest }
}

/**
 * Moderation hides a message, or shows it again (decision 039), inside the caller's
 * transaction: the message takes the room's next version, so both members' catch-up brings the
 * change. Answers what to publish after the commit: each member's own view of it (the sender
 * keeps the text and the reason; the recipient gets it empty). Undefined for no such message.
 */
export async function setMessageHidden(
  trx: Kysely<DB>,
  messageId: string,
  hidden: { at: number; reason: string } | null,
): Promise<{ roomId: string; publish(publish: Publish | undefined): void } | undefined> {
  const found = await trx
    .selectFrom('dm_messages')
    .select(['room_id', 'withheld'])
    .where('id', '=', messageId)
    .executeTakeFirst()
  if (!found) return undefined
  const version = await nextVersion(trx, found.room_id)
  await trx
    .updateTable('dm_messages')
    .set({ hidden_at: hidden?.at ?? null, hidden_reason: hidden?.reason ?? null, version })
    .where('id', '=', messageId)
    .execute()
  const row = await messageRows(trx)
    .where('dm_messages.id', '=', messageId)
    .executeTakeFirstOrThrow()
  const members = await trx
    .selectFrom('dm_members')
    .select('user_id')
    .where('room_id', '=', found.room_id)
    .execute()
  const audience = members
    .map((member) => member.user_id)
    .filter((userId) => Number(found.withheld) === 0 || userId === row.sender_id)
  return {
    roomId: found.room_id,
    publish(publish) {
      for (const userId of audience) {
        publishAll(
          publish,
          [userId],
          [
            {
              type: 'message.updated',
              data: { roomId: found.room_id, message: messageView(row, userId) },
            },
          ],
        )
      }
    },
  }
}
