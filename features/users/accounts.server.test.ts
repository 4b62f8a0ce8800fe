import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTemporaryDatabase, type TemporaryDatabase } from '../../db/test-support.ts'
import { createProfileForAccount, deleteProfile, usernameRefusal } from './accounts.server.ts'

let database: TemporaryDatabase

beforeEach(async () => {
  database = await openTemporaryDatabase()
})
afterEach(async () => {
  await database.remove()
})

describe('usernameRefusal', () => {
  it.each(['hana', 'sakura_dev', 'a1b', 'x'.repeat(20)])('accepts %s', async (username) => {
    expect(await usernameRefusal(database.db, username)).toBeUndefined()
  })

  it.each(['ab', 'x'.repeat(21), 'Hana', 'hana-chan', 'はな', 'a b', '../x'])(
    'refuses %j by its shape',
    async (username) => {
      expect(await usernameRefusal(database.db, username)).toMatch(/半角の英小文字/)
    },
  )

  it.each(['courses', 'auth', 'dms', 'plans', 'labs_stories', 'api', 'realtime', 'settings'])(
    'refuses %s, a path the site uses',
    async (username) => {
      expect(await usernameRefusal(database.db, username)).toBe('このユーザー名は使えません')
    },
  )

  it('refuses a username that already has a profile', async () => {
    await createProfileForAccount(database.db, { sub: 'sub-1', username: 'hana' })
    expect(await usernameRefusal(database.db, 'hana')).toBe('このユーザー名はすでに使われています')
  })
})

describe('profiles for accounts', () => {
  it('creates one profile per account, however often it is told', async () => {
    await createProfileForAccount(database.db, { sub: 'sub-1', username: 'hana' }, 1000)
    await createProfileForAccount(database.db, { sub: 'sub-1', username: 'hana' }, 2000)
    const rows = await database.db.selectFrom('users').selectAll().execute()
    expect(rows).toEqual([
      expect.objectContaining({
        id: 'sub-1',
        username: 'hana',
        display_name: 'hana',
        created_at: 1000,
      }),
    ])
  })

  it('deletes the profile', async () => {
    await createProfileForAccount(database.db, { sub: 'sub-1', username: 'hana' })
    await deleteProfile(database.db, 'sub-1')
    expect(await database.db.selectFrom('users').selectAll().execute()).toEqual([])
  })
})
