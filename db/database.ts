import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { Kysely, PostgresDialect, SqliteAdapter, SqliteDialect, sql } from 'kysely'
import pg from 'pg'
import { openNodeSqlite } from './node-sqlite.ts'
import type { DB } from './schema.ts'

export type DatabaseSettings = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string }

/** The one way the application reaches its relational data, whichever engine is behind it. */
export type Database = {
  db: Kysely<DB>
  kind: DatabaseSettings['kind']
  /** Resolves when the engine answers a trivial query; used by /readyz. */
  ping(): Promise<void>
  close(): Promise<void>
}

const INT8_OID = 20

/**
 * Resolves once every transaction committed before the call would survive a power loss, not
 * only a crash of the process (which every commit survives). PostgreSQL's commits already do
 * (`synchronous_commit`, on by default). SQLite runs in WAL mode with `synchronous=NORMAL`:
 * commits reach the disk at checkpoints, so this runs one, which syncs the log before copying
 * it into the database file and syncs that file after. One that could not copy every frame
 * (another connection was reading) throws, and the caller tries again later.
 */
export async function makeCommitsDurable(db: Kysely<DB>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return
  const { rows } = await sql<{
    busy: number
    log: number
    checkpointed: number
  }>`PRAGMA wal_checkpoint(PASSIVE)`.execute(db)
  const [result] = rows
  if (result?.busy !== 0 || result.checkpointed !== result.log) {
    throw new Error(`SQLite checkpoint incomplete: ${JSON.stringify(result)}`)
  }
}

/**
 * The disk (or the database's size limit) is full: SQLite's SQLITE_FULL, PostgreSQL's
 * disk_full (53100), or the file system's ENOSPC. Not the request's fault, nor a bug.
 */
export function isStorageFull(error: unknown): boolean {
  const found = error as { code?: unknown; errcode?: unknown; errno?: unknown } | null
  if (!found || typeof found !== 'object') return false
  return (
    (found.code === 'ERR_SQLITE_ERROR' && found.errcode === 13) ||
    found.code === '53100' ||
    found.code === 'ENOSPC'
  )
}

export function openDatabase(settings: DatabaseSettings): Database {
  const db = new Kysely<DB>({ dialect: dialectFor(settings) })
  let closed: Promise<void> | undefined
  return {
    db,
    kind: settings.kind,
    async ping() {
      await sql`select 1`.execute(db)
    },
    close() {
      closed ??= db.destroy()
      return closed
    },
  }
}

function dialectFor(settings: DatabaseSettings) {
  if (settings.kind === 'sqlite') {
    if (settings.file !== ':memory:') mkdirSync(path.dirname(settings.file), { recursive: true })
    return new SqliteDialect({
      database: async () => openNodeSqlite(settings.file, { busyTimeoutMs: 5_000 }),
    })
  }
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: 10,
    // Epoch-millisecond columns are BIGINT; they fit a JS number, so read them as one.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? Number
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  })
  // An idle connection the server closes (restart, failover, admin command) is reported here;
  // pg drops it and the next query opens a new one. Without a listener it would crash the process.
  pool.on('error', (error) => {
    console.warn(`PostgreSQL connection lost while idle: ${error.message}`)
  })
  return new PostgresDialect({ pool })
}
