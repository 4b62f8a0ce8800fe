import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { referencedFiles } from '#server/storage/backends/indexed/object-index.ts'
import { listLeftovers } from './content-files.ts'

/**
 * The files a disk store holds that no index row accounts for: temporaries, and content files
 * neither an object nor a part names. Empty after every finished operation and after
 * `recover()`, which removes them.
 */
export async function findLeftovers(directory: string, db: Kysely<DB>): Promise<string[]> {
  return listLeftovers(directory, await referencedFiles(db))
}
