import { Migrator } from 'kysely'
import { describe, expect, it } from 'vitest'
import { migrateToLatest } from './migrate.ts'
import { migrations } from './migrations/index.ts'
import { openTemporaryDatabase } from './test-support.ts'

describe('migrateToLatest', () => {
  it('applies a migration that lands after a later-numbered one already ran', async () => {
    const database = await openTemporaryDatabase({ migrate: false })
    try {
      const { '2026-11-25-0022-exercises': landedLate, ...earlier } = migrations
      expect(landedLate).toBeDefined()
      const before = new Migrator({
        db: database.db,
        provider: { getMigrations: async () => earlier },
      })
      expect((await before.migrateToLatest()).error).toBeUndefined()
      expect(await migrateToLatest(database.db)).toEqual(['2026-11-25-0022-exercises'])
    } finally {
      await database.remove()
    }
  })
})
