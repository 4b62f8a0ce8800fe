import { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import { makeCommitsDurable } from '#db/database.ts'
import type { DB } from '#db/schema.ts'
import type {
  ObjectInfo,
  ObjectStore,
  OpenedObject,
} from '#server/storage/backends/object-store.ts'
import { noSuchKey, S3Error } from '#server/storage/s3-error.ts'
import {
  type ContentCacheLimits,
  DEFAULT_CONTENT_CACHE,
  withContentCache,
} from './cached-content.ts'
import { createContentLeases } from './content-leases.ts'
import type { ContentStore } from './content-store.ts'
import { withDurableRemovals } from './durable-removals.ts'
import { contentItemsOf, objectInfo } from './index-rows.ts'
import { createKeyLocks } from './key-locks.ts'
import { listObjects } from './list-objects.ts'
import { createMultipartUploads } from './multipart-uploads.ts'
import {
  commitObject,
  findObjectRow,
  objectLockName,
  quotedEtag,
  referencedFiles,
  requireBucket,
  type StoreContext,
} from './object-index.ts'

export type IndexedObjectStoreOptions = {
  /** The site's database, migrated: it holds the index (docs/decisions/010). */
  db: Kysely<DB>
  content: ContentStore
  /** How long removals of replaced content gather before the index is made durable. */
  removalDelayMs?: number
  /** Small items kept in memory once read (cached-content.ts). */
  contentCache?: ContentCacheLimits
  now?: () => Date
}

/**
 * An object store whose index (buckets, keys, metadata, which content holds each object) is in
 * the site's database and whose bytes are immutable content items: the index's transaction is
 * each write's commit point (docs/decisions/010). The fs and s3 backends differ only in where
 * the content items live.
 */
export function createIndexedObjectStore(options: IndexedObjectStoreOptions): ObjectStore {
  // Long by design: a factory whose returned methods share its private state; each method is short.
  const removals = withDurableRemovals(
    options.content,
    () => makeCommitsDurable(options.db),
    options.removalDelayMs,
  )
  const files = withContentCache(removals, options.contentCache ?? DEFAULT_CONTENT_CACHE)
  const context: StoreContext = {
    db: options.db,
    files,
    withKeyLock: createKeyLocks(),
    leases: createContentLeases(files),
    now: options.now ?? (() => new Date()),
  }
  const { db, withKeyLock, leases } = context
  const multipart = createMultipartUploads(context)

  async function openObject(bucket: string, key: string): Promise<OpenedObject | undefined> {
    let missingFile: string | undefined
    for (;;) {
      const row = await findObjectRow(db, bucket, key)
      if (!row) {
        await requireBucket(db, bucket)
        return undefined
      }
      const items = contentItemsOf(row)
      if (items.length > 1) {
        const release = leases.take(items)
        // Replaced before the lease was taken: its items may be gone; read the new row.
        const current = await findObjectRow(db, bucket, key).catch((error: unknown) => {
          release()
          throw error
        })
        if (current?.file_id !== row.file_id) {
          release()
          continue
        }
        const info = objectInfo(row)
        return {
          info,
          read: (range, released) =>
            readParts(files, items, info.partSizes ?? [], range, released, release),
        }
      }
      // Replaced between reading the row and opening its content: read the new row.
      const content = await files.open(row.file_id, Number(row.size))
      if (!content) {
        // The same row twice without its file: the index is damaged, not merely changing.
        if (missingFile === row.file_id) {
          throw new S3Error(
            'InternalError',
            'We encountered an internal error. Please try again.',
            500,
          )
        }
        missingFile = row.file_id
        continue
      }
      return { info: objectInfo(row), read: (range, released) => content.read(range, released) }
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

    async putObject(bucket, key, body, object, condition) {
      await requireBucket(db, bucket)
      const file = await files.write(body.stream)
      return withKeyLock(objectLockName(bucket, key), () =>
        commitObject(context, bucket, key, {
          file,
          etag: quotedEtag(file.md5),
          object,
          checksum: body.checksum(),
          ...(condition && { condition }),
        }),
      )
    },
    async headObject(bucket, key) {
      const row = await findObjectRow(db, bucket, key)
      if (row) return objectInfo(row)
      await requireBucket(db, bucket)
      return undefined
    },
    openObject,
    async copyObject(source, target, copied): Promise<ObjectInfo> {
      const opened = await openObject(source.bucket, source.key)
      if (!opened) throw noSuchKey(source.key)
      const bytes = opened.read()
      // The source's snapshot (a descriptor, or a lease) is let go on every way out.
      await requireBucket(db, target.bucket).catch((error: unknown) => {
        bytes.destroy()
        throw error
      })
      const file = await files.write(bytes)
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
          .returning(['file_id', 'part_files'])
          .executeTakeFirst()
        if (deleted) await leases.remove(contentItemsOf(deleted))
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
    settle: () => removals.settle(),
    close: () => files.close(),
  }
}

/**
 * Bytes of an object kept as its parts' items: each part the range touches, opened when its turn
 * comes (the lease keeps them all until then). The lease goes when the stream closes.
 */
function readParts(
  files: ContentStore,
  items: readonly string[],
  sizes: readonly number[],
  range: { start: number; end: number } | undefined,
  released: Promise<boolean> | undefined,
  release: () => void,
): Readable {
  if (sizes.length !== items.length) {
    release()
    throw new Error('An object row names a different number of parts and part sizes')
  }
  const total = sizes.reduce((sum, size) => sum + size, 0)
  const wanted = range ?? { start: 0, end: total - 1 }
  async function* pieces(): AsyncGenerator<Buffer> {
    let partStart = 0
    for (const [index, item] of items.entries()) {
      const size = sizes[index] as number
      const start = Math.max(wanted.start, partStart)
      const end = Math.min(wanted.end, partStart + size - 1)
      if (start <= end) {
        const content = await files.open(item, size)
        // Leased items are never removed: a missing one is damage, not a replacement.
        if (!content) throw new Error(`The content ${item} of an object is missing`)
        yield* content.read({ start: start - partStart, end: end - partStart }, released)
      }
      partStart += size
    }
  }
  const stream = Readable.from(pieces(), { objectMode: false })
  stream.once('close', release)
  return stream
}
