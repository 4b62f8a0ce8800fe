import type { Kysely } from 'kysely'
import type { z } from 'zod'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { parseInput } from '#features/content-error.ts'
import { readMarker } from './message-input.ts'
import {
  type MessageOptions,
  memberRoom,
  publishAll,
  requireActor,
  usernameOf,
} from './room-access.server.ts'
import { countUnreadMessages } from './unread.server.ts'

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
