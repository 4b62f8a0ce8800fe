import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import {
  type MessageOptions,
  memberRoom,
  publishAll,
  requireActor,
  usernameOf,
} from './room-access.server.ts'

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
