import { existsSync } from 'node:fs'
import { copyFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { isStorageFull, makeCommitsDurable, openDatabase } from './database.ts'
import { migrateToLatest } from './migrate.ts'
import { migrations } from './migrations/index.ts'
import type { NewUser } from './schema.ts'
import { openTemporaryDatabase, type TemporaryDatabase } from './test-support.ts'

const opened: TemporaryDatabase[] = []

async function temporaryDatabase(options?: { migrate?: boolean }) {
  const database = await openTemporaryDatabase(options)
  opened.push(database)
  return database
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((database) => database.remove()))
})

function user(username: string, overrides: Partial<NewUser> = {}): NewUser {
  return {
    id: `user-${username}`,
    username,
    display_name: username,
    created_at: 1_000,
    updated_at: 1_000,
    ...overrides,
  }
}

describe('migrateToLatest', () => {
  it('applies every migration once; a second run applies nothing', async () => {
    const { db } = await temporaryDatabase({ migrate: false })
    expect(await migrateToLatest(db)).toEqual(Object.keys(migrations))
    expect(await migrateToLatest(db)).toEqual([])

    const tables = await db.introspection.getTables()
    expect(tables.map((table) => table.name)).toEqual(
      expect.arrayContaining(['courses', 'users', 'identity_users', 'mail_outbox']),
    )
  })

  it('creates columns with their defaults and constraints', async () => {
    const { db } = await temporaryDatabase()
    await db.insertInto('users').values(user('hana')).execute()
    const row = await db.selectFrom('users').selectAll().executeTakeFirstOrThrow()
    expect(row.bio).toBe('')

    await expect(
      db
        .insertInto('users')
        .values(user('hana', { id: 'other' }))
        .execute(),
    ).rejects.toThrow(/UNIQUE/)
    await expect(
      db
        .insertInto('courses')
        .values({
          id: 'c1',
          owner_id: 'user-hana',
          title: 't',
          summary: 's',
          level: 'expert' as 'advanced',
          access: 'free',
          status: 'published',
          published_at: 1,
          created_at: 1,
          updated_at: 1,
        })
        .execute(),
    ).rejects.toThrow(/CHECK/)
  })
})

describe('openDatabase (SQLite)', () => {
  it('creates the directory for the database file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'techlab-unit-'))
    const file = path.join(dir, 'nested', 'deeper', 'techlab.sqlite')
    const database = openDatabase({ kind: 'sqlite', file })
    try {
      expect(database.kind).toBe('sqlite')
      await database.ping()
      expect(existsSync(file)).toBe(true)
    } finally {
      await database.close()
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('makes commits durable by checkpointing the write-ahead log into the database file', async () => {
    const database = await temporaryDatabase()
    // What a power loss may leave of a commit not yet checkpointed: the database file alone.
    const usersInFileAlone = async (name: string) => {
      const copied = path.join(database.dir, name)
      await copyFile(database.file, copied)
      const copy = openDatabase({ kind: 'sqlite', file: copied })
      try {
        return (await copy.db.selectFrom('users').select('username').execute()).map(
          (row) => row.username,
        )
      } finally {
        await copy.close()
      }
    }
    await makeCommitsDurable(database.db)
    await database.db.insertInto('users').values(user('hana')).execute()
    expect(await usersInFileAlone('before.sqlite')).toEqual([])
    await makeCommitsDurable(database.db)
    expect(await usersInFileAlone('after.sqlite')).toEqual(['hana'])
  })

  it('uses WAL journaling and enforces foreign keys', async () => {
    const { db } = await temporaryDatabase()
    const journal = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(db)
    expect(journal.rows).toEqual([{ journal_mode: 'wal' }])
    const foreignKeys = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db)
    expect(foreignKeys.rows).toEqual([{ foreign_keys: 1 }])
  })

  it('rejects a course whose owner does not exist', async () => {
    const { db } = await temporaryDatabase()
    await expect(
      db
        .insertInto('courses')
        .values({
          id: 'c1',
          owner_id: 'nobody',
          title: 't',
          summary: 's',
          level: 'beginner',
          access: 'free',
          status: 'published',
          published_at: 1,
          created_at: 1,
          updated_at: 1,
        })
        .execute(),
    ).rejects.toThrow(/FOREIGN KEY/)
    expect(await db.selectFrom('courses').selectAll().execute()).toEqual([])
  })

  it('deletes a user’s courses with the user (ON DELETE CASCADE)', async () => {
    const { db } = await temporaryDatabase()
    await db.insertInto('users').values(user('hana')).execute()
    await db
      .insertInto('courses')
      .values({
        id: 'c1',
        owner_id: 'user-hana',
        title: 't',
        summary: 's',
        level: 'beginner',
        access: 'free',
        status: 'draft',
        published_at: null,
        created_at: 1,
        updated_at: 1,
      })
      .execute()
    await db.deleteFrom('users').where('id', '=', 'user-hana').execute()
    expect(await db.selectFrom('courses').select('id').execute()).toEqual([])
  })

  it('supports RETURNING on insert, update and delete', async () => {
    const { db } = await temporaryDatabase()
    const inserted = await db
      .insertInto('users')
      .values(user('hana', { bio: 'こんにちは' }))
      .returning(['id', 'username', 'bio', 'created_at'])
      .executeTakeFirstOrThrow()
    expect(inserted).toEqual({
      id: 'user-hana',
      username: 'hana',
      bio: 'こんにちは',
      created_at: 1_000,
    })

    const updated = await db
      .updateTable('users')
      .set({ display_name: '花', updated_at: 2_000 })
      .where('id', '=', 'user-hana')
      .returning(['display_name', 'updated_at'])
      .execute()
    expect(updated).toEqual([{ display_name: '花', updated_at: 2_000 }])

    const deleted = await db
      .deleteFrom('users')
      .where('id', '=', 'user-hana')
      .returning('username')
      .execute()
    expect(deleted).toEqual([{ username: 'hana' }])
  })

  it('reports affected rows for statements without RETURNING', async () => {
    const { db } = await temporaryDatabase()
    await db
      .insertInto('users')
      .values([user('a'), user('b'), user('c')])
      .execute()
    const result = await db
      .updateTable('users')
      .set({ bio: 'x' })
      .where('username', 'in', ['a', 'b'])
      .executeTakeFirstOrThrow()
    expect(result.numUpdatedRows).toBe(2n)
  })

  it('binds booleans, undefined and repeated statements correctly', async () => {
    const { db } = await temporaryDatabase()
    const flags = await sql<{
      yes: number
      no: number
      missing: null
    }>`select ${true} as yes, ${false} as no, ${undefined} as missing`.execute(db)
    expect(flags.rows).toEqual([{ yes: 1, no: 0, missing: null }])

    // The same SQL text runs again from the statement cache with new parameters.
    await db
      .insertInto('users')
      .values([user('a'), user('b')])
      .execute()
    for (const name of ['a', 'b', 'a']) {
      const row = await db
        .selectFrom('users')
        .select('username')
        .where('username', '=', name)
        .executeTakeFirstOrThrow()
      expect(row.username).toBe(name)
    }
  })

  it('keeps working past the statement cache size', async () => {
    const { db } = await temporaryDatabase()
    for (let n = 0; n < 250; n++) {
      const result = await sql<{ n: number }>`select ${sql.lit(n)} as n`.execute(db)
      expect(result.rows).toEqual([{ n }])
    }
    // An early statement, evicted from the cache, prepares again.
    expect((await sql<{ n: number }>`select ${sql.lit(0)} as n`.execute(db)).rows).toEqual([
      { n: 0 },
    ])
  })

  it('commits a transaction that succeeds', async () => {
    const { db } = await temporaryDatabase()
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(user('a')).execute()
      await trx.insertInto('users').values(user('b')).execute()
    })
    expect(await db.selectFrom('users').select('username').orderBy('username').execute()).toEqual([
      { username: 'a' },
      { username: 'b' },
    ])
  })

  it('rolls back a transaction that throws', async () => {
    const { db } = await temporaryDatabase()
    await db.insertInto('users').values(user('existing')).execute()
    const failure = new Error('stop')
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('users').values(user('a')).execute()
        await trx.updateTable('users').set({ bio: 'changed' }).execute()
        throw failure
      }),
    ).rejects.toBe(failure)

    expect(await db.selectFrom('users').select(['username', 'bio']).execute()).toEqual([
      { username: 'existing', bio: '' },
    ])
    // The connection is usable again after the rollback.
    await db.insertInto('users').values(user('after')).execute()
    expect(await db.selectFrom('users').select('username').execute()).toHaveLength(2)
  })

  it('rolls back when a statement inside the transaction fails', async () => {
    const { db } = await temporaryDatabase()
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('users').values(user('a')).execute()
        await trx
          .insertInto('users')
          .values(user('a', { id: 'duplicate' }))
          .execute()
      }),
    ).rejects.toThrow(/UNIQUE/)
    expect(await db.selectFrom('users').select('id').execute()).toEqual([])
  })

  it('keeps data on disk across connections', async () => {
    const first = await temporaryDatabase()
    await first.db.insertInto('users').values(user('kept')).execute()
    await first.close()

    const second = openDatabase({ kind: 'sqlite', file: first.file })
    try {
      expect(await migrateToLatest(second.db)).toEqual([])
      expect(await second.db.selectFrom('users').select('username').execute()).toEqual([
        { username: 'kept' },
      ])
    } finally {
      await second.close()
    }
  })

  it('can be closed more than once', async () => {
    const database = await temporaryDatabase()
    await database.ping()
    await Promise.all([database.close(), database.close()])
    await expect(database.close()).resolves.toBeUndefined()
  })
})

describe('a full disk', () => {
  it('fails a transaction with SQLITE_FULL itself, not "cannot rollback", and keeps nothing', async () => {
    const database = await temporaryDatabase()
    const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(database.db)
    // The database may not grow: the same error as a disk without free space.
    await sql.raw(`PRAGMA max_page_count = ${rows[0]?.page_count}`).execute(database.db)
    const failure = await database.db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('users').values(user('hana')).execute()
        await trx
          .insertInto('users')
          .values(user('taro', { bio: 'あ'.repeat(200_000) }))
          .execute()
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      )
    expect((failure as Error).message).toBe('database or disk is full')
    expect(isStorageFull(failure)).toBe(true)
    await sql.raw('PRAGMA max_page_count = 1073741823').execute(database.db)
    expect(await database.db.selectFrom('users').select('username').execute()).toEqual([])
    // The connection is usable again.
    await database.db.insertInto('users').values(user('hana')).execute()
  })

  it.each([
    [Object.assign(new Error('x'), { code: 'ERR_SQLITE_ERROR', errcode: 13 }), true],
    [Object.assign(new Error('x'), { code: '53100' }), true],
    [Object.assign(new Error('x'), { code: 'ENOSPC' }), true],
    [Object.assign(new Error('x'), { code: 'ERR_SQLITE_ERROR', errcode: 19 }), false],
    [new Error('x'), false],
    [undefined, false],
  ])('recognises %o: %s', (error, expected) => {
    expect(isStorageFull(error)).toBe(expected)
  })
})
