import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { ListEntry, ListPage, ListQuery } from '#server/storage/backends/object-store.ts'
import { objectInfo } from './index-rows.ts'
import { scanKeys } from './key-scan.ts'

/** One page of keys in UTF-8 byte order, rolled up to common prefixes with a delimiter. */
export async function listObjects(
  db: Kysely<DB>,
  bucket: string,
  query: ListQuery,
): Promise<ListPage> {
  const prefix = query.prefix ?? ''
  const startAfter = query.startAfter ?? ''
  const page = await scanKeys({
    prefix,
    delimiter: query.delimiter || undefined,
    marker: startAfter,
    start: { key: startAfter },
    max: query.maxKeys,
    fetch: (after, limit) =>
      db
        .selectFrom('storage_objects')
        .selectAll()
        .where('bucket', '=', bucket)
        .where('key', '>=', prefix)
        .where('key', '>', after.key)
        .orderBy('key')
        .limit(limit)
        .execute(),
    cursorOf: (row) => ({ key: row.key }),
    item: objectInfo,
  })
  const entries: ListEntry[] = page.entries.map((entry) =>
    'item' in entry ? { object: entry.item } : entry,
  )
  const last = entries.at(-1)
  if (!page.isTruncated || last === undefined) return { entries, isTruncated: page.isTruncated }
  const nextStartAfter = 'commonPrefix' in last ? last.commonPrefix : last.object.key
  return { entries, isTruncated: true, nextStartAfter }
}
