import type { Kysely } from 'kysely'
import { expect } from 'vitest'
import type { DB } from '#db/schema.ts'
import type { Actor } from './actor.ts'
import { ContentError } from './content-error.ts'

/** For feature tests: the actors of `insertTestUsers(db, ['author', 'other', 'admin'])`. */
export const testActors = {
  author: { userId: 'user-author', isAdmin: false },
  other: { userId: 'user-other', isAdmin: false },
  admin: { userId: 'user-admin', isAdmin: true },
  /** Signed in, but its id names no user at all. */
  forged: { userId: 'user-forged', isAdmin: false },
} satisfies Record<string, Actor>

/** For feature tests: rejects with a ContentError of this code, which it returns. */
export async function refused(promise: Promise<unknown>, code: ContentError['code']) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(ContentError)
  expect((error as ContentError).code).toBe(code)
  return error as ContentError
}

/** For feature tests: every row of these tables, to prove a refused write changed nothing. */
export async function snapshotTables(db: Kysely<DB>, tables: readonly (keyof DB)[]) {
  const rows: Record<string, unknown[]> = {}
  for (const table of tables) {
    const serialised = (await db.selectFrom(table).selectAll().execute()).map((row) =>
      JSON.stringify(row),
    )
    rows[table] = serialised.sort()
  }
  return rows
}

/** For feature tests: users `user-{name}` with username `name`, created at `now`. */
export async function insertTestUsers(db: Kysely<DB>, names: readonly string[], now: number) {
  await db
    .insertInto('users')
    .values(
      names.map((name) => ({
        id: `user-${name}`,
        username: name,
        display_name: `${name} さん`,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute()
}
