import type { Kysely } from 'kysely'
import type { DB } from '../../../../db/schema.ts'
import { listLeftovers } from './content-files.ts'

/**
 * The files a disk store holds that no index row accounts for: temporaries, and content files
 * neither an object nor a part names. Empty after every finished operation and after
 * `recover()`, which removes them.
 */
export async function findLeftovers(directory: string, db: Kysely<DB>): Promise<string[]> {
  return listLeftovers(directory, await referencedFiles(db))
}

/** Every content file id an object or a part row names. */
export async function referencedFiles(db: Kysely<DB>): Promise<Set<string>> {
  const referenced = new Set<string>()
  for (const table of ['storage_objects', 'storage_parts'] as const) {
    const rows = await db.selectFrom(table).select('file_id').execute()
    for (const row of rows) referenced.add(row.file_id)
  }
  return referenced
}
