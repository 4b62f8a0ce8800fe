import type { Kysely } from 'kysely'
import type { DB } from '../../../../db/schema.ts'
import { noSuchKey, S3Error } from '../../s3-error.ts'
import type { ObjectInfo, ObjectStore, OpenedObject } from '../object-store.ts'
import { openContentFiles } from './content-files.ts'
import { objectInfo } from './index-rows.ts'
import { createKeyLocks } from './key-locks.ts'
import { referencedFiles } from './leftovers.ts'
import { listObjects } from './list-objects.ts'
import { createMultipartUploads } from './multipart-uploads.ts'
import {
  commitObject,
  objectLockName,
  quotedEtag,
  requireBucket,
  type StoreContext,
} from './object-index.ts'

export type FsObjectStoreOptions = {
  /** Where content files live (`content/`, `tmp/`); the store owns everything below it. */
  directory: string
  /** The site's database, migrated: it holds the index (docs/decisions/010). */
  db: Kysely<DB>
  /** Flush files and directories before each commit. Off only for throwaway stores. */
  fsync?: boolean
  now?: () => Date
}

/**
 * The embedded object store: bytes in content files on disk, everything else in the database
 * index, whose transaction is each write's commit point (docs/decisions/010).
 */
export async function createFsObjectStore(options: FsObjectStoreOptions): Promise<ObjectStore> {
  const files = await openContentFiles(options.directory, { fsync: options.fsync ?? true })
  const context: StoreContext = {
    db: options.db,
    files,
    withKeyLock: createKeyLocks(),
    now: options.now ?? (() => new Date()),
  }
  const { db, withKeyLock } = context
  const multipart = createMultipartUploads(context)

  async function openObject(bucket: string, key: string): Promise<OpenedObject | undefined> {
    for (;;) {
      const row = await db
        .selectFrom('storage_objects')
        .selectAll()
        .where('bucket', '=', bucket)
        .where('key', '=', key)
        .executeTakeFirst()
      if (!row) {
        await requireBucket(db, bucket)
        return undefined
      }
      const file = await files.open(row.file_id).catch((error: NodeJS.ErrnoException) => {
        // Replaced between reading the row and opening its file: read the new row.
        if (error.code === 'ENOENT') return undefined
        throw error
      })
      if (!file) continue
      // The open descriptor is the snapshot: a replacement unlinks the file, not these bytes.
      return {
        info: objectInfo(row),
        read: (range) =>
          file.createReadStream({
            autoClose: true,
            ...(range && { start: range.start, end: range.end }),
          }),
      }
    }
  }

  return {
    async createBucket(bucket) {
      const created = await db
        .insertInto('storage_buckets')
        .values({ name: bucket, created_at: context.now().getTime() })
        .onConflict((conflict) => conflict.column('name').doNothing())
        .executeTakeFirst()
      if (Number(created.numInsertedOrUpdatedRows ?? 0) === 0) {
        throw new S3Error(
          'BucketAlreadyOwnedByYou',
          'Your previous request to create the named bucket succeeded and you already own it.',
          409,
          { BucketName: bucket },
        )
      }
    },
    async deleteBucket(bucket) {
      await db.transaction().execute(async (trx) => {
        await requireBucket(trx, bucket)
        const object = await trx
          .selectFrom('storage_objects')
          .select('key')
          .where('bucket', '=', bucket)
          .limit(1)
          .executeTakeFirst()
        const upload = await trx
          .selectFrom('storage_uploads')
          .select('upload_id')
          .where('bucket', '=', bucket)
          .limit(1)
          .executeTakeFirst()
        if (object || upload) {
          throw new S3Error('BucketNotEmpty', 'The bucket you tried to delete is not empty', 409, {
            BucketName: bucket,
          })
        }
        await trx.deleteFrom('storage_buckets').where('name', '=', bucket).execute()
      })
    },
    async bucketExists(bucket) {
      return requireBucket(db, bucket).then(
        () => true,
        (error) => {
          if (error instanceof S3Error && error.code === 'NoSuchBucket') return false
          throw error
        },
      )
    },
    async listBuckets() {
      const rows = await db.selectFrom('storage_buckets').selectAll().orderBy('name').execute()
      return rows.map((row) => ({ name: row.name, createdAt: new Date(Number(row.created_at)) }))
    },

    async putObject(bucket, key, body, object) {
      await requireBucket(db, bucket)
      const file = await files.write(body.stream)
      return withKeyLock(objectLockName(bucket, key), () =>
        commitObject(context, bucket, key, {
          file,
          etag: quotedEtag(file.md5),
          object,
          checksum: body.checksum(),
        }),
      )
    },
    async headObject(bucket, key) {
      const row = await db
        .selectFrom('storage_objects')
        .selectAll()
        .where('bucket', '=', bucket)
        .where('key', '=', key)
        .executeTakeFirst()
      if (row) return objectInfo(row)
      await requireBucket(db, bucket)
      return undefined
    },
    openObject,
    async copyObject(source, target, copied): Promise<ObjectInfo> {
      const opened = await openObject(source.bucket, source.key)
      if (!opened) throw noSuchKey(source.key)
      await requireBucket(db, target.bucket)
      const file = await files.write(opened.read())
      const { info } = opened
      const object =
        copied.metadata === 'COPY'
          ? { headers: info.headers, metadata: info.metadata, owner: copied.owner }
          : copied.object
      // The copy is one piece: a composite (per-part) checksum no longer describes it.
      const checksum = info.checksum?.type === 'FULL_OBJECT' ? info.checksum : undefined
      return withKeyLock(objectLockName(target.bucket, target.key), () =>
        commitObject(context, target.bucket, target.key, {
          file,
          etag: quotedEtag(file.md5),
          object,
          checksum,
        }),
      )
    },
    async deleteObject(bucket, key) {
      await withKeyLock(objectLockName(bucket, key), async () => {
        const deleted = await db
          .deleteFrom('storage_objects')
          .where('bucket', '=', bucket)
          .where('key', '=', key)
          .returning('file_id')
          .executeTakeFirst()
        if (deleted) await files.remove(deleted.file_id)
        else await requireBucket(db, bucket)
      })
    },
    async listObjects(bucket, query) {
      await requireBucket(db, bucket)
      return listObjects(db, bucket, query)
    },

    ...multipart,

    async recover() {
      await files.removeLeftovers(await referencedFiles(db))
    },
    async close() {},
  }
}
