import type { ExpressionBuilder, Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { messagesOfMember, requireActor } from './room-access.server.ts'

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
