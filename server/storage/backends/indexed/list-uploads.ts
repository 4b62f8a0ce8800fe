import type { Kysely } from 'kysely'
import type { DB } from '../../../../db/schema.ts'
import type { UploadsEntry, UploadsPage, UploadsQuery } from '../object-store.ts'
import { uploadInfo } from './index-rows.ts'

/** Above every character in UTF-8 byte order: `p + MAX_CHAR` is past most keys starting with p. */
const MAX_CHAR = '\u{10FFFF}'
const BATCH = 1000

/**
 * One page of unfinished uploads in (key, upload id) order, the index's order (as list-objects.ts
 * lists keys). With a delimiter, keys sharing a common prefix come back once and the scan jumps
 * past them. Ordering by id rather than by start time within a key keeps `upload-id-marker`
 * paging exact (S3 pages by "upload ids lexicographically greater than the marker").
 */
export async function listUploads(
  db: Kysely<DB>,
  bucket: string,
  query: UploadsQuery,
): Promise<UploadsPage> {
  const prefix = query.prefix ?? ''
  const delimiter = query.delimiter || undefined
  const keyMarker = query.keyMarker ?? ''
  const entries: UploadsEntry[] = []
  if (query.maxUploads <= 0) return { entries, isTruncated: false }

  // Uploads after (afterKey, afterId); an id of undefined means every upload of afterKey is past.
  let afterKey = keyMarker
  let afterId: string | undefined =
    keyMarker && query.uploadIdMarker ? query.uploadIdMarker : undefined
  let lastCommonPrefix: string | undefined
  for (;;) {
    const rows = await db
      .selectFrom('storage_uploads')
      .selectAll()
      .where('bucket', '=', bucket)
      .where('key', '>=', prefix)
      .where((eb) =>
        afterId === undefined
          ? eb('key', '>', afterKey)
          : eb.or([
              eb('key', '>', afterKey),
              eb.and([eb('key', '=', afterKey), eb('upload_id', '>', afterId as string)]),
            ]),
      )
      .orderBy('key')
      .orderBy('upload_id')
      .limit(Math.min(BATCH, query.maxUploads + 1))
      .execute()
    if (rows.length === 0) return { entries, isTruncated: false }
    for (const row of rows) {
      // Keys with the prefix are contiguous in byte order: the first without it ends the scan.
      if (!row.key.startsWith(prefix)) return { entries, isTruncated: false }
      afterKey = row.key
      afterId = row.upload_id
      const end = delimiter ? row.key.indexOf(delimiter, prefix.length) : -1
      let entry: UploadsEntry
      if (delimiter && end >= 0) {
        const commonPrefix = row.key.slice(0, end + delimiter.length)
        if (commonPrefix === lastCommonPrefix) continue
        lastCommonPrefix = commonPrefix
        afterKey = commonPrefix + MAX_CHAR
        afterId = undefined
        // At or before the key marker (which then starts with it): not on this page.
        if (keyMarker.startsWith(commonPrefix)) break
        entry = { commonPrefix }
      } else {
        entry = { upload: uploadInfo(row) }
      }
      if (entries.length === query.maxUploads) return truncated(entries)
      entries.push(entry)
      if ('commonPrefix' in entry) break
    }
  }
}

function truncated(entries: UploadsEntry[]): UploadsPage {
  const last = entries.at(-1)
  if (last === undefined || 'commonPrefix' in last) {
    return { entries, isTruncated: true, nextKeyMarker: last?.commonPrefix }
  }
  return {
    entries,
    isTruncated: true,
    nextKeyMarker: last.upload.key,
    nextUploadIdMarker: last.upload.uploadId,
  }
}
