import type { Kysely } from 'kysely'
import type { DB } from '../../../../db/schema.ts'
import { noSuchBucket } from '../../s3-error.ts'
import type { NewObject, ObjectInfo, StoredChecksum } from '../object-store.ts'
import type { ContentStore, WrittenContent } from './content-store.ts'
import { checksumColumn, describedColumns, objectInfo } from './index-rows.ts'
import type { KeyLocks } from './key-locks.ts'

/** What the parts of an indexed store share: the index, the content store and the key locks. */
export type StoreContext = {
  db: Kysely<DB>
  files: ContentStore
  withKeyLock: KeyLocks
  now: () => Date
}

export type CommittedContent = {
  file: WrittenContent
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
  await switchContentFile(files, content.file.fileId, () =>
    db.transaction().execute(async (trx) => {
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
        .onConflict((conflict) => conflict.columns(['bucket', 'key']).doUpdateSet(row))
        .execute()
      return previous?.file_id
    }),
  )
  return objectInfo(row)
}

/**
 * Runs the transaction that makes `fileId` current (the commit point), which answers the file
 * it replaced. If it fails, the new file is removed and nothing changed; once it succeeded, the
 * replaced file is removed.
 */
export async function switchContentFile(
  files: ContentStore,
  fileId: string,
  commit: () => Promise<string | undefined>,
): Promise<void> {
  let replaced: string | undefined
  try {
    replaced = await commit()
  } catch (error) {
    await files.remove(fileId)
    throw error
  }
  if (replaced) await files.remove(replaced)
}

/** The index row of one object, if any. */
export const findObjectRow = (db: Kysely<DB>, bucket: string, key: string) =>
  db
    .selectFrom('storage_objects')
    .selectAll()
    .where('bucket', '=', bucket)
    .where('key', '=', key)
    .executeTakeFirst()

export const quotedEtag = (md5: Buffer, partCount?: number) =>
  `"${md5.toString('hex')}${partCount === undefined ? '' : `-${partCount}`}"`

/** Every content id an object or a part row names. */
export async function referencedFiles(db: Kysely<DB>): Promise<Set<string>> {
  const referenced = new Set<string>()
  for (const table of ['storage_objects', 'storage_parts'] as const) {
    const rows = await db.selectFrom(table).select('file_id').execute()
    for (const row of rows) referenced.add(row.file_id)
  }
  return referenced
}
