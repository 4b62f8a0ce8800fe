import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Publish } from './events.ts'
import { messageRows, messageView, nextVersion, publishAll } from './room-access.server.ts'

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
