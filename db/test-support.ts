import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { type Database, type DatabaseSettings, openDatabase } from './database.ts'
import { migrateToLatest } from './migrate.ts'

export type { Database }

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

/**
 * For feature tests on both engines: SQLite always, and a fresh PostgreSQL database (created
 * and dropped per call) when TEST_DATABASE_URL names a server.
 */
export const testEngines: readonly ('sqlite' | 'postgres')[] = process.env.TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite']

/**
 * A migrated, empty database of the given engine; `settings` let another process open it too,
 * `remove()` deletes it.
 */
export async function openTestDatabase(
  engine: 'sqlite' | 'postgres',
): Promise<Database & { settings: DatabaseSettings; remove(): Promise<void> }> {
  if (engine === 'sqlite') {
    const temporary = await openTemporaryDatabase()
    return { ...temporary, settings: { kind: 'sqlite', file: temporary.file } }
  }
  const created = await createPostgresDatabase(process.env.TEST_DATABASE_URL ?? '')
  const settings = { kind: 'postgres', url: created.url } as const
  const database = openDatabase(settings)
  await migrateToLatest(database.db)
  return {
    ...database,
    settings,
    async remove() {
      await database.close()
      await created.drop()
    },
  }
}

/** Creates an empty database on the server TEST_DATABASE_URL names; fails loudly if unreachable. */
export async function createPostgresDatabase(
  adminUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `techlab_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`create database ${name}`)
  } finally {
    await admin.end()
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl })
      await client.connect()
      try {
        await client.query(`drop database if exists ${name} with (force)`)
      } finally {
        await client.end()
      }
    },
  }
}
