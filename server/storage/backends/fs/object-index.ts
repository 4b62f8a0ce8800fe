import type { Kysely } from 'kysely'
import type { DB } from '../../../../db/schema.ts'
import { noSuchBucket } from '../../s3-error.ts'
import type { NewObject, ObjectInfo, StoredChecksum } from '../object-store.ts'
import type { ContentFiles, WrittenFile } from './content-files.ts'
import { checksumColumn, describedColumns, objectInfo } from './index-rows.ts'
import type { KeyLocks } from './key-locks.ts'

/** What the parts of the disk store share: the index, the content files and the key locks. */
export type StoreContext = {
  db: Kysely<DB>
  files: ContentFiles
  withKeyLock: KeyLocks
  now: () => Date
}

export type CommittedContent = {
  file: WrittenFile
  etag: string
  object: NewObject
  checksum?: StoredChecksum
  partSizes?: number[]
}

/** The lock that serialises every writer of one key: put, copy onto it, delete, complete. */
export const objectLockName = (bucket: string, key: string) => `object\u0000${bucket}\u0000${key}`

export async function requireBucket(db: Kysely<DB>, bucket: string): Promise<void> {
  const row = await db
    .selectFrom('storage_buckets')
    .select('name')
    .where('name', '=', bucket)
    .executeTakeFirst()
  if (!row) throw noSuchBucket(bucket)
}

/**
 * Points the key at a content file that is already complete and durable, in one transaction
 * (the commit point), then removes the file it replaced. `beforeCommit` runs inside that
 * transaction, for multipart's last checks and clean-up of its rows. The caller holds the key's
 * lock; if anything fails before the commit, the new file is removed and the old object stays.
 */
export async function commitObject(
  context: StoreContext,
  bucket: string,
  key: string,
  content: CommittedContent,
  beforeCommit?: (trx: Kysely<DB>) => Promise<void>,
): Promise<ObjectInfo> {
  const { db, files } = context
  const row = {
    bucket,
    key,
    file_id: content.file.fileId,
    size: content.file.size,
    etag: content.etag,
    ...describedColumns(content.object),
    checksum: checksumColumn(content.checksum),
    part_sizes: content.partSizes ? JSON.stringify(content.partSizes) : null,
    last_modified: context.now().getTime(),
  }
  let replaced: string | undefined
  try {
    replaced = await db.transaction().execute(async (trx) => {
      await requireBucket(trx, bucket)
      await beforeCommit?.(trx)
      const previous = await trx
        .selectFrom('storage_objects')
        .select('file_id')
        .where('bucket', '=', bucket)
        .where('key', '=', key)
        .executeTakeFirst()
      await trx
        .insertInto('storage_objects')
        .values(row)
        .onConflict((conflict) =>
          conflict.columns(['bucket', 'key']).doUpdateSet({
            file_id: row.file_id,
            size: row.size,
            etag: row.etag,
            headers: row.headers,
            metadata: row.metadata,
            owner: row.owner,
            checksum: row.checksum,
            part_sizes: row.part_sizes,
            last_modified: row.last_modified,
          }),
        )
        .execute()
      return previous?.file_id
    })
  } catch (error) {
    await files.remove(content.file.fileId)
    throw error
  }
  if (replaced) await files.remove(replaced)
  return objectInfo(row)
}

export const quotedEtag = (md5: Buffer, partCount?: number) =>
  `"${md5.toString('hex')}${partCount === undefined ? '' : `-${partCount}`}"`
