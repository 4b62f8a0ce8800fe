import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import {
  conditionHolds,
  type NewObject,
  type ObjectInfo,
  type StoredChecksum,
  type WriteCondition,
} from '#server/storage/backends/object-store.ts'
import { noSuchBucket, S3Error } from '#server/storage/s3-error.ts'
import type { ContentLeases } from './content-leases.ts'
import type { ContentStore, WrittenContent } from './content-store.ts'
import {
  checksumColumn,
  contentItemsOf,
  describedColumns,
  objectInfo,
  partFilesColumn,
} from './index-rows.ts'
import type { KeyLocks } from './key-locks.ts'

/**
 * What the parts of an indexed store share: the index, the content store, the key locks and the
 * readers' leases.
 */
export type StoreContext = {
  db: Kysely<DB>
  files: ContentStore
  withKeyLock: KeyLocks
  leases: ContentLeases
  now: () => Date
}

export type CommittedContent = {
  /** A new item, or (with `partFiles`) the first part's item and the object's whole size. */
  file: WrittenContent
  /** Complete: the parts' items, in order, which the object is read from from now on. */
  partFiles?: string[]
  etag: string
  object: NewObject
  checksum?: StoredChecksum
  partSizes?: number[]
  partChecksums?: (StoredChecksum | null)[]
  /** Complete: the upload the object comes from, so that a retried Complete can be answered. */
  uploadId?: string
  condition?: WriteCondition
}

export const conditionalConflict = () =>
  new S3Error(
    'ConditionalRequestConflict',
    'A conflicting operation occurred. If using PutObject you can retry the request. If using CompleteMultipartUpload you might need to start a new multipart upload.',
    409,
  )

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
 * Points the key at content that is already complete and durable, in one transaction (the
 * commit point), then removes the content it replaced. `beforeCommit` runs inside that
 * transaction, for multipart's last checks and clean-up of its rows. The caller holds the key's
 * lock; if anything fails before the commit, a new item is removed (parts stay their upload's)
 * and the old object stays.
 */
export async function commitObject(
  context: StoreContext,
  bucket: string,
  key: string,
  content: CommittedContent,
  beforeCommit?: (trx: Kysely<DB>) => Promise<void>,
): Promise<ObjectInfo> {
  const { db } = context
  const row = {
    bucket,
    key,
    file_id: content.file.fileId,
    size: content.file.size,
    etag: content.etag,
    ...describedColumns(content.object),
    checksum: checksumColumn(content.checksum),
    part_sizes: content.partSizes ? JSON.stringify(content.partSizes) : null,
    part_files: partFilesColumn(content.partFiles),
    part_checksums: content.partChecksums ? JSON.stringify(content.partChecksums) : null,
    upload_id: content.uploadId ?? null,
    last_modified: context.now().getTime(),
  }
  await switchContent(context, content.partFiles ? [] : [content.file.fileId], () =>
    db.transaction().execute(async (trx) => {
      // The bucket and the object this replaces, in one query: a PUT's commit is short enough
      // that each query is a noticeable part of it.
      const found = await trx
        .selectFrom('storage_buckets')
        .leftJoin('storage_objects', (join) =>
          join
            .onRef('storage_objects.bucket', '=', 'storage_buckets.name')
            .on('storage_objects.key', '=', key),
        )
        .select(['storage_objects.file_id', 'storage_objects.part_files', 'storage_objects.etag'])
        .where('storage_buckets.name', '=', bucket)
        .executeTakeFirst()
      if (!found) throw noSuchBucket(bucket)
      // The key's lock is held: nothing else commits to it between this check and the write.
      if (content.condition && !conditionHolds(content.condition, found.etag)) {
        throw conditionalConflict()
      }
      await beforeCommit?.(trx)
      await trx
        .insertInto('storage_objects')
        .values(row)
        .onConflict((conflict) => conflict.columns(['bucket', 'key']).doUpdateSet(row))
        .execute()
      const { file_id: replaced, part_files } = found
      return replaced === null ? [] : contentItemsOf({ file_id: replaced, part_files })
    }),
  )
  return objectInfo(row)
}

/**
 * Runs the transaction that makes new content current (the commit point), which answers the
 * items it replaced. If it fails, the `created` items are removed and nothing changed; once it
 * succeeded, the replaced items are removed (when their readers let go).
 */
export async function switchContent(
  context: StoreContext,
  created: readonly string[],
  commit: () => Promise<string[]>,
): Promise<void> {
  let replaced: string[]
  try {
    replaced = await commit()
  } catch (error) {
    for (const item of created) await context.files.remove(item)
    throw error
  }
  await context.leases.remove(replaced)
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
  const objects = await db.selectFrom('storage_objects').select(['file_id', 'part_files']).execute()
  for (const row of objects) for (const item of contentItemsOf(row)) referenced.add(item)
  const parts = await db.selectFrom('storage_parts').select('file_id').execute()
  for (const row of parts) referenced.add(row.file_id)
  return referenced
}
