import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import {
  createIndexedObjectStore,
  type IndexedObjectStoreOptions,
} from '#server/storage/backends/indexed/indexed-object-store.ts'
import type { ObjectStore } from '#server/storage/backends/object-store.ts'
import { openContentFiles } from './content-files.ts'

export type FsObjectStoreOptions = Pick<IndexedObjectStoreOptions, 'removalDelayMs' | 'now'> & {
  /** Where content files live (`content/`, `tmp/`); the store owns everything below it. */
  directory: string
  /** The site's database, migrated: it holds the index (docs/decisions/010). */
  db: Kysely<DB>
  /** Flush files and directories before each commit. Off only for throwaway stores. */
  fsync?: boolean
}

/** The embedded object store: the index in the database, the bytes in files on local disk. */
export async function createFsObjectStore(options: FsObjectStoreOptions): Promise<ObjectStore> {
  const content = await openContentFiles(options.directory, { fsync: options.fsync ?? true })
  const { db, now, removalDelayMs } = options
  return createIndexedObjectStore({ db, content, now, removalDelayMs })
}
