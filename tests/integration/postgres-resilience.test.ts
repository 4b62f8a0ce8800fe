import { sql } from 'kysely'
import pg from 'pg'
import { describe, expect, it, vi } from 'vitest'
import { openDatabase } from '#db/database.ts'
import { createPostgresDatabase } from '#tests/support/test-server.ts'

const adminUrl = process.env.TEST_DATABASE_URL

// Only meaningful on the PostgreSQL run of this suite.
describe.runIf(adminUrl)('the PostgreSQL pool', () => {
  it('survives the server closing an idle connection, and the next query works', async () => {
    const created = await createPostgresDatabase(adminUrl as string)
    const database = openDatabase({ kind: 'postgres', url: created.url })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(
        database.db,
      )
      const admin = new pg.Client({ connectionString: adminUrl })
      await admin.connect()
      await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid])
      await admin.end()
      await vi.waitFor(() =>
        expect(warn).toHaveBeenCalledWith(expect.stringContaining('lost while idle')),
      )
      await database.ping()
    } finally {
      warn.mockRestore()
      await database.close()
      await created.drop()
    }
  })
})
