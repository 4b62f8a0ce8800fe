import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import type { Actor } from '#features/actor.ts'
import { lessonBodyReadableSql, lessonLocked, type PremiumReader } from './plan.server.ts'

const OWNER = 'user-owner'
const readers: PremiumReader[] = [
  { viewer: undefined, plan: 'free' },
  { viewer: { userId: 'user-reader', isAdmin: false }, plan: 'free' },
  { viewer: { userId: 'user-reader', isAdmin: false }, plan: 'premium' },
  { viewer: { userId: OWNER, isAdmin: false }, plan: 'free' },
  { viewer: { userId: 'user-admin', isAdmin: true } satisfies Actor, plan: 'free' },
]
const accesses = ['free', 'premium'] as const

describe.each(testEngines)('the lesson read rule on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  beforeAll(async () => {
    database = await openTestDatabase(engine)
  })
  afterAll(async () => {
    await database.remove()
  })

  it('says the same in SQL as in TypeScript, for every reader and access', async () => {
    for (const reader of readers) {
      for (const courseAccess of accesses) {
        for (const lessonAccess of accesses) {
          const readable = lessonBodyReadableSql(reader, {
            courseAccess: 'c.access',
            lessonAccess: 'l.access',
            ownerId: 'c.owner_id',
          })
          const { rows } = await sql<{ readable: number }>`
            select case when ${readable} then 1 else 0 end as readable
            from (select ${courseAccess} as access, ${OWNER} as owner_id) as c,
              (select ${lessonAccess} as access) as l`.execute(database.db)
          const locked = lessonLocked(reader, { courseAccess, lessonAccess, ownerId: OWNER })
          expect(
            Number(rows[0]?.readable),
            JSON.stringify({ reader, courseAccess, lessonAccess }),
          ).toBe(locked ? 0 : 1)
        }
      }
    }
    // The rule itself: only premium lessons lock, and never for their owner or an admin.
    expect(
      readers.map((reader) =>
        lessonLocked(reader, { courseAccess: 'free', lessonAccess: 'premium', ownerId: OWNER }),
      ),
    ).toEqual([true, true, false, false, false])
  })
})
