import type { Kysely } from 'kysely'
import type { ContentKind, DB } from '#db/schema.ts'
import { CONTENT_KINDS } from '#features/content-kinds.ts'
import type { PublishableTable } from '#features/editable-item.server.ts'

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
  await deleteSocialOf(trx, kind, [id])
}

/** Before an account goes (its content cascades away): the social rows of all its items. */
export async function deleteSocialOfOwner(trx: Kysely<DB>, ownerId: string): Promise<void> {
  for (const kind of Object.keys(CONTENT_KINDS) as ContentKind[]) {
    const owned = await trx
      .selectFrom(CONTENT_KINDS[kind].table as PublishableTable as 'studies')
      .select('id')
      .where('owner_id', '=', ownerId)
      .execute()
    await deleteSocialOf(
      trx,
      kind,
      owned.map((item) => item.id),
    )
  }
}

async function deleteSocialOf(trx: Kysely<DB>, kind: ContentKind, ids: readonly string[]) {
  if (ids.length === 0) return
  for (const table of ['notifications', 'comments', 'likes'] as const) {
    await trx
      .deleteFrom(table)
      .where('subject_kind', '=', kind)
      .where('subject_id', 'in', ids)
      .execute()
  }
}
