import type { Kysely } from 'kysely'
import type { DB } from '../../../../db/schema.ts'
import type { ListEntry, ListPage, ListQuery } from '../object-store.ts'
import { objectInfo } from './index-rows.ts'

/** Above every character in UTF-8 byte order: `p + MAX_CHAR` is past most keys starting with p. */
const MAX_CHAR = '\u{10FFFF}'
const BATCH = 1000

/**
 * One page of keys in UTF-8 byte order (the index's order: SQLite's BINARY collation,
 * PostgreSQL's "C"). With a delimiter, keys sharing a common prefix come back once, and the
 * scan jumps past them instead of reading each.
 */
export async function listObjects(
  db: Kysely<DB>,
  bucket: string,
  query: ListQuery,
): Promise<ListPage> {
  const prefix = query.prefix ?? ''
  const delimiter = query.delimiter || undefined
  const startAfter = query.startAfter ?? ''
  const entries: ListEntry[] = []
  if (query.maxKeys <= 0) return { entries, isTruncated: false }

  let after = startAfter
  let lastCommonPrefix: string | undefined
  for (;;) {
    const rows = await db
      .selectFrom('storage_objects')
      .selectAll()
      .where('bucket', '=', bucket)
      .where('key', '>=', prefix)
      .where('key', '>', after)
      .orderBy('key')
      .limit(Math.min(BATCH, query.maxKeys + 1))
      .execute()
    if (rows.length === 0) return { entries, isTruncated: false }
    for (const row of rows) {
      // Keys with the prefix are contiguous in byte order: the first without it ends the scan.
      if (!row.key.startsWith(prefix)) return { entries, isTruncated: false }
      after = row.key
      const end = delimiter ? row.key.indexOf(delimiter, prefix.length) : -1
      let entry: ListEntry
      if (delimiter && end >= 0) {
        const commonPrefix = row.key.slice(0, end + delimiter.length)
        if (commonPrefix === lastCommonPrefix) continue
        lastCommonPrefix = commonPrefix
        after = commonPrefix + MAX_CHAR
        // At or before `startAfter` (which then starts with it): not on this page; jump past it.
        if (startAfter.startsWith(commonPrefix)) break
        entry = { commonPrefix }
      } else {
        entry = { object: objectInfo(row) }
      }
      if (entries.length === query.maxKeys) {
        return { entries, isTruncated: true, nextStartAfter: entryName(entries.at(-1)) }
      }
      entries.push(entry)
      if ('commonPrefix' in entry) break
    }
  }
}

const entryName = (entry: ListEntry | undefined) =>
  entry === undefined ? undefined : 'commonPrefix' in entry ? entry.commonPrefix : entry.object.key
