import type { Kysely } from 'kysely'
import type { ContentKind, DB } from '../../db/schema.ts'
import { CONTENT_KINDS } from '../content-kinds.ts'
import type { PublishableTable } from '../editable-item.server.ts'

/** The tables whose rows name an item by (subject_kind, subject_id). */
const SOCIAL_TABLES = ['notifications', 'comments', 'likes'] as const

/**
 * Likes, comments and notifications name their item by (kind, id), not by a foreign key, so
 * whoever deletes an item deletes them here, in the same transaction. Replies and
 * notifications about comments go with the comments (foreign keys).
 */
export async function deleteSocialOfSubject(
  trx: Kysely<DB>,
  kind: ContentKind,
  id: string,
): Promise<void> {
  for (const table of SOCIAL_TABLES) {
    await trx
      .deleteFrom(table)
      .where('subject_kind', '=', kind)
      .where('subject_id', '=', id)
      .execute()
  }
}

/** Before an account goes (its content cascades away): the social rows of all its items. */
export async function deleteSocialOfOwner(trx: Kysely<DB>, ownerId: string): Promise<void> {
  for (const [kind, { table }] of Object.entries(CONTENT_KINDS) as [
    ContentKind,
    (typeof CONTENT_KINDS)[ContentKind],
  ][]) {
    const owned = trx
      .selectFrom(table as PublishableTable as 'studies')
      .select('id')
      .where('owner_id', '=', ownerId)
    for (const social of SOCIAL_TABLES) {
      await trx
        .deleteFrom(social)
        .where('subject_kind', '=', kind)
        .where('subject_id', 'in', owned)
        .execute()
    }
  }
}
