import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely'
import type { DB, DmMessagesTable } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import type { MessageEvent, Publish } from './events.ts'
import { MESSAGE_EDIT_WINDOW_MS } from './message-input.ts'
import type { DmUser, MessageView, RoomView } from './message-views.ts'

// What every direct-message operation shares: who belongs to a room, which messages each member
// sees and how they are shown, the room's change counter, and publishing after a commit.

/** When the change happened, and where its events go once it is committed. */
export type MessageOptions = { now?: number; publish?: Publish }

const ROOM_NOT_FOUND = 'メッセージルームが見つかりません'

/** A room as a member sees it, with the other member's id (for publishing; never sent). */
type MemberRoom = RoomView & { otherId: string; blockedByOther: boolean }

/** Messages a member sees: all but those withheld from them (sent while they blocked the sender). */
export function visibleTo(userId: string) {
  return (eb: ExpressionBuilder<DB, 'dm_messages'>) =>
    eb.or([eb('dm_messages.withheld', '=', 0), eb('dm_messages.sender_id', '=', userId)])
}

/** Rooms hidden from their member (`me`): those with someone (`them`) the member blocks. */
export function notBlockedBy(eb: ExpressionBuilder<DB, 'dm_rooms'>) {
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
export function messageView(row: MessageRow, viewerId: string): MessageView {
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

export function messageRows(db: Kysely<DB>) {
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
export async function memberRoom(
  db: Kysely<DB>,
  actor: Actor,
  roomId: string,
): Promise<MemberRoom> {
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

export function dmUser(row: { username: string; display_name: string; avatar_key: string | null }) {
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

export async function usernameOf(db: Kysely<DB>, userId: string): Promise<string> {
  const row = await db
    .selectFrom('users')
    .select('username')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  return row.username
}

export function requireActor(actor: Actor | undefined): Actor {
  if (!actor) throw ContentError.signInRequired()
  return actor
}

/** What publishes after a commit: a listener's failure never undoes or fails a stored message. */
export function publishAll(
  publish: Publish | undefined,
  userIds: string[],
  events: MessageEvent[],
) {
  if (!publish) return
  for (const event of events) {
    try {
      publish(userIds, event)
    } catch {
      // Realtime is a courtesy: clients catch up from /api (roomChanges).
    }
  }
}

/** Takes the room's next change number (and, for a new message, its activity time). */
export async function nextVersion(
  trx: Kysely<DB>,
  roomId: string,
  activityAt?: number,
): Promise<number> {
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
