import type { Kysely, Selectable } from 'kysely'
import type { DB } from '#db/schema.ts'
import { afterCursor } from './pagination.server.ts'
import { type Cursor, type Page, pageFrom } from './pagination.ts'
import { type TagLinkTable, tagsOfItems } from './tags/item-tags.server.ts'

/** The kinds listed newest first with an author (courses have their own catalogue). */
export type ListedTable = 'studies' | 'labs' | 'lab_stories'

/** A published item's row with what every card shows: its author and tags. */
export type PublishedItem<T extends ListedTable> = {
  id: string
  row: Selectable<DB[T]>
  publishedAt: number
  tags: string[]
  author: { username: string; displayName: string }
}

/**
 * Published items of one kind, newest first, a page at a time (by `(published_at, id)`);
 * only one author's when `username` is given, only those `where` keeps when it is given.
 */
export async function listPublishedItems<T extends ListedTable>(
  db: Kysely<DB>,
  table: T,
  tagTable: TagLinkTable,
  page: { cursor?: Cursor | undefined; limit: number },
  filter: { username?: string | undefined; labId?: string | undefined } = {},
): Promise<Page<PublishedItem<T>>> {
  // Kysely cannot type one query over a union of tables; the columns used here are shared.
  const t = table as ListedTable as 'lab_stories'
  let query = db
    .selectFrom(t)
    .innerJoin('users', 'users.id', `${t}.owner_id`)
    .selectAll(t)
    .select(['users.username', 'users.display_name'])
    .where(`${t}.status`, '=', 'published')
    .where(`${t}.hidden_at`, 'is', null)
  if (filter.username !== undefined) {
    query = query.where('users.username', '=', filter.username.toLowerCase())
  }
  if (filter.labId !== undefined) query = query.where(`${t}.lab_id`, '=', filter.labId)
  const { cursor, limit } = page
  if (cursor) {
    query = query.where(afterCursor(cursor, `${t}.published_at`, `${t}.id`))
  }
  const rows = await query
    .orderBy(`${t}.published_at`, 'desc')
    .orderBy(`${t}.id`, 'desc')
    .limit(limit + 1)
    .execute()
  const tags = await tagsOfItems(
    db,
    tagTable,
    rows.map((row) => row.id),
  )
  const items = rows.map(({ username, display_name, ...row }) => ({
    id: row.id,
    row: row as unknown as Selectable<DB[T]>,
    publishedAt: row.published_at ?? 0,
    tags: tags.get(row.id) ?? [],
    author: { username, displayName: display_name },
  }))
  return pageFrom(items, limit, (item) => ({ at: item.publishedAt, id: item.id }))
}
