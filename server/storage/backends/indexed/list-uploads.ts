import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type {
  UploadsEntry,
  UploadsPage,
  UploadsQuery,
} from '#server/storage/backends/object-store.ts'
import { uploadInfo } from './index-rows.ts'
import { scanKeys } from './key-scan.ts'

/**
 * One page of unfinished uploads in (key, upload id) order, rolled up to common prefixes with a
 * delimiter. Ordering by id rather than by start time within a key keeps `upload-id-marker`
 * paging exact (S3 pages by "upload ids lexicographically greater than the marker").
 */
export async function listUploads(
  db: Kysely<DB>,
  bucket: string,
  query: UploadsQuery,
): Promise<UploadsPage> {
  const prefix = query.prefix ?? ''
  const keyMarker = query.keyMarker ?? ''
  const page = await scanKeys({
    prefix,
    delimiter: query.delimiter || undefined,
    marker: keyMarker,
    // Without an id, every upload of the key marker is past; S3 ignores an id without a key.
    start:
      keyMarker && query.uploadIdMarker
        ? { key: keyMarker, id: query.uploadIdMarker }
        : { key: keyMarker },
    max: query.maxUploads,
    fetch: (after, limit) =>
      db
        .selectFrom('storage_uploads')
        .selectAll()
        .where('bucket', '=', bucket)
        .where('key', '>=', prefix)
        .where((eb) =>
          after.id === undefined
            ? eb('key', '>', after.key)
            : eb.or([
                eb('key', '>', after.key),
                eb.and([eb('key', '=', after.key), eb('upload_id', '>', after.id)]),
              ]),
        )
        .orderBy('key')
        .orderBy('upload_id')
        .limit(limit)
        .execute(),
    cursorOf: (row) => ({ key: row.key, id: row.upload_id }),
    item: uploadInfo,
  })
  const entries: UploadsEntry[] = page.entries.map((entry) =>
    'item' in entry ? { upload: entry.item } : entry,
  )
  const last = entries.at(-1)
  if (!page.isTruncated || last === undefined) return { entries, isTruncated: page.isTruncated }
  if ('commonPrefix' in last)
    return { entries, isTruncated: true, nextKeyMarker: last.commonPrefix }
  return {
    entries,
    isTruncated: true,
    nextKeyMarker: last.upload.key,
    nextUploadIdMarker: last.upload.uploadId,
  }
}
