/** Above every character in UTF-8 byte order: `p + MAX_CHAR` is past most keys starting with p. */
const MAX_CHAR = '\u{10FFFF}'
const BATCH = 1000

/** Where a scan resumes: after this key, or (with an id) after this row of it. */
export type ScanCursor = { key: string; id?: string }
export type ScanEntry<Item> = { item: Item } | { commonPrefix: string }

/**
 * One page of index rows in key order (UTF-8 byte order: SQLite's BINARY collation, PostgreSQL's
 * "C"), shared by ListObjects and ListMultipartUploads. With a delimiter, keys sharing a common
 * prefix come back once, counting as one entry, and the scan jumps past them instead of reading
 * each. `marker` is the client's marker: a common prefix it starts with was on an earlier page.
 */
export async function scanKeys<Row extends { key: string }, Item>(scan: {
  prefix: string
  delimiter: string | undefined
  marker: string
  start: ScanCursor
  max: number
  /** Rows with keys `>= prefix` after the cursor, in order, at most `limit`. */
  fetch: (after: ScanCursor, limit: number) => Promise<Row[]>
  cursorOf: (row: Row) => ScanCursor
  item: (row: Row) => Item
}): Promise<{ entries: ScanEntry<Item>[]; isTruncated: boolean }> {
  const { prefix, delimiter, marker } = scan
  const entries: ScanEntry<Item>[] = []
  if (scan.max <= 0) return { entries, isTruncated: false }
  let after = scan.start
  let lastCommonPrefix: string | undefined
  for (;;) {
    const rows = await scan.fetch(after, Math.min(BATCH, scan.max + 1))
    if (rows.length === 0) return { entries, isTruncated: false }
    for (const row of rows) {
      // Keys with the prefix are contiguous in byte order: the first without it ends the scan.
      if (!row.key.startsWith(prefix)) return { entries, isTruncated: false }
      after = scan.cursorOf(row)
      const end = delimiter ? row.key.indexOf(delimiter, prefix.length) : -1
      let entry: ScanEntry<Item>
      if (delimiter && end >= 0) {
        const commonPrefix = row.key.slice(0, end + delimiter.length)
        if (commonPrefix === lastCommonPrefix) continue
        lastCommonPrefix = commonPrefix
        after = { key: commonPrefix + MAX_CHAR }
        // At or before the marker (which then starts with it): not on this page; jump past it.
        if (marker.startsWith(commonPrefix)) break
        entry = { commonPrefix }
      } else {
        entry = { item: scan.item(row) }
      }
      if (entries.length === scan.max) return { entries, isTruncated: true }
      entries.push(entry)
      if ('commonPrefix' in entry) break
    }
  }
}
