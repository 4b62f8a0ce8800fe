import type { Kysely } from 'kysely'
import type { z } from 'zod'
import { newContentId } from '#db/ids.ts'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import { afterCursor } from '#features/pagination.server.ts'
import { type Page, pageFrom } from '#features/pagination.ts'
import { actingUser } from '#features/social/subjects.server.ts'
import { blocks } from '#features/users/blocks.server.ts'
import { userIdOf } from '#features/users/profiles.server.ts'
import { roomListQuery, roomWith } from './message-input.ts'
import type { RoomSummary, RoomView } from './message-views.ts'
import {
  dmUser,
  memberRoom,
  messageRows,
  messageView,
  notBlockedBy,
  requireActor,
  visibleTo,
} from './room-access.server.ts'

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
