import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import {
  createIndexedObjectStore,
  type IndexedObjectStoreOptions,
} from '#server/storage/backends/indexed/indexed-object-store.ts'
import type { ObjectStore } from '#server/storage/backends/object-store.ts'
import { createS3ContentObjects, type S3ContentLocation } from './s3-content-objects.ts'

/** Where in the engine's bucket the content objects live; nothing else there is touched. */
export const S3_CONTENT_PREFIX = 'techlab-content/'

export type S3ObjectStoreOptions = S3ContentLocation &
  Pick<IndexedObjectStoreOptions, 'removalDelayMs' | 'now'> & {
    /** The site's database, migrated: it holds the index (docs/decisions/010). */
    db: Kysely<DB>
  }

/**
 * The object store for deployments on AWS S3, MinIO or Ceph: the same index in the site's
 * database as the fs backend, with the bytes as content objects in a bucket of that engine,
 * reached through @aws-sdk/client-s3 (docs/decisions/010).
 */
export function createS3ObjectStore(options: S3ObjectStoreOptions): ObjectStore {
  const { db, now, removalDelayMs, ...location } = options
  return createIndexedObjectStore({
    db,
    content: createS3ContentObjects(location),
    now,
    removalDelayMs,
  })
}
