import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite'
import type { SqliteDatabase, SqliteStatement } from 'kysely'

const STATEMENT_CACHE_SIZE = 200

/**
 * Adapts Node's built-in `node:sqlite` to the better-sqlite3-shaped interface Kysely's
 * SqliteDialect expects, so the embedded default needs no native addon.
 * Prepared statements are cached by SQL text: Kysely compiles the same query shapes again
 * and again, and preparing is a measurable share of a short query.
 */
export function openNodeSqlite(file: string, options: { busyTimeoutMs: number }): SqliteDatabase {
  const database = new DatabaseSync(file, {
    enableForeignKeyConstraints: true,
    timeout: options.busyTimeoutMs,
  })
  database.exec('PRAGMA journal_mode = WAL')
  database.exec('PRAGMA synchronous = NORMAL')
  const statements = new Map<string, SqliteStatement>()

  return {
    close() {
      statements.clear()
      database.close()
    },
    prepare(sql) {
      // SQLite ends the transaction itself on some errors (SQLITE_FULL, SQLITE_IOERR…);
      // Kysely's ROLLBACK would then fail with "cannot rollback - no transaction is active"
      // and hide the error that mattered. With nothing to roll back, there is nothing to do.
      if (!database.isTransaction && /^\s*rollback\s*$/i.test(sql)) return NOTHING_TO_ROLL_BACK
      const cached = statements.get(sql)
      if (cached) return cached
      const statement = adapt(database.prepare(sql))
      if (statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = statements.keys().next().value
        if (oldest !== undefined) statements.delete(oldest)
      }
      statements.set(sql, statement)
      return statement
    },
  }
}

const NOTHING_TO_ROLL_BACK: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
}

function adapt(statement: StatementSync): SqliteStatement {
  return {
    // A statement that yields columns (SELECT, or anything with RETURNING) is a reader.
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...toInputs(parameters)),
    run: (parameters) => statement.run(...toInputs(parameters)),
    iterate: (parameters) => statement.iterate(...toInputs(parameters)),
  }
}

function toInputs(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map((value) => {
    if (value === undefined) return null
    if (typeof value === 'boolean') return value ? 1 : 0
    return value as SQLInputValue
  })
}
