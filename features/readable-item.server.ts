import type { Kysely, Selectable } from 'kysely'
import type { DB } from '#db/schema.ts'
import { type Actor, mayEdit } from './actor.ts'
import { ContentError } from './content-error.ts'
import type { ListedTable } from './published-lists.server.ts'

/** An item's moderation state as its views carry it (decision 039). */
export function hiddenOf(row: { hidden_at: number | null; hidden_reason: string | null }) {
  return row.hidden_at === null
    ? null
    : { at: Number(row.hidden_at), reason: row.hidden_reason ?? '' }
}

/** An item at its page's address with its author, as one viewer may see it. */
export type ReadableItem<T extends ListedTable> = {
  row: Selectable<DB[T]>
  author: { username: string; displayName: string }
  /** The viewer may edit, publish, unpublish or delete it. */
  canEdit: boolean
  /** Hidden by moderation: then only its author and admins get this far. */
  hidden: { at: number; reason: string } | null
}

/**
 * The item `id` under `username`'s pages, as `viewer` (undefined for a guest) may see it. Drafts
 * exist only for their owner and admins: anyone else gets "not found", never "forbidden", so a
 * draft does not leak; so do items hidden by moderation.
 */
export async function readableItem<T extends ListedTable>(
  db: Kysely<DB>,
  table: T,
  address: { username: string; id: string },
  viewer: Actor | undefined,
  notFound: string,
): Promise<ReadableItem<T>> {
  // Kysely cannot type one query over a union of tables; the columns used here are shared.
  const t = table as ListedTable as 'studies'
  const found = await db
    .selectFrom(t)
    .innerJoin('users', 'users.id', `${t}.owner_id`)
    .selectAll(t)
    .select(['users.username', 'users.display_name'])
    .where(`${t}.id`, '=', address.id)
    .where('users.username', '=', address.username.toLowerCase())
    .executeTakeFirst()
  const canEdit = found !== undefined && mayEdit(viewer, found.owner_id)
  if (!found || ((found.status !== 'published' || found.hidden_at !== null) && !canEdit)) {
    throw ContentError.notFound(notFound)
  }
  const { username, display_name, ...row } = found
  return {
    row: row as unknown as Selectable<DB[T]>,
    author: { username, displayName: display_name },
    canEdit,
    hidden: hiddenOf(found),
  }
}
