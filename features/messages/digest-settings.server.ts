import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import { requireActor } from './room-access.server.ts'

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
