import type { Kysely } from 'kysely'
import type { z } from 'zod'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { parseInput } from '#features/content-error.ts'
import { olderMessagesQuery, roomChangesQuery } from './message-input.ts'
import type { MessagePage, RoomChanges } from './message-views.ts'
import {
  memberRoom,
  messageRows,
  messageView,
  requireActor,
  visibleTo,
} from './room-access.server.ts'

/** Catch-up answers at most this many changes at once; the client asks again for the rest. */
export const MAX_CHANGES = 200

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
