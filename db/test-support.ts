import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type Database, openDatabase } from './database.ts'
import { migrateToLatest } from './migrate.ts'

/** For tests only: a real SQLite file in its own temporary directory. */
export type TemporaryDatabase = Database & { dir: string; file: string; remove(): Promise<void> }

export async function openTemporaryDatabase(
  options: { migrate?: boolean } = {},
): Promise<TemporaryDatabase> {
  const dir = await mkdtemp(path.join(tmpdir(), 'techlab-unit-'))
  const file = path.join(dir, 'techlab.sqlite')
  const database = openDatabase({ kind: 'sqlite', file })
  if (options.migrate ?? true) await migrateToLatest(database.db)
  return {
    ...database,
    dir,
    file,
    async remove() {
      await database.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
