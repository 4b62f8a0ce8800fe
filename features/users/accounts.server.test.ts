import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import routes from '#app/routes.ts'
import { openTemporaryDatabase, type TemporaryDatabase } from '#db/test-support.ts'
import { RESERVED_PREFIXES } from '#server/reserved.ts'
import {
  createProfileForAccount,
  deleteProfile,
  RESERVED_USERNAMES,
  usernameRefusal,
} from './accounts.server.ts'

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

  it('reserves the first segment of every route the site has, so no profile can shadow it', () => {
    type RouteEntry = { path?: string; children?: RouteEntry[] }
    const firstSegments = (entries: readonly RouteEntry[], parent = ''): string[] =>
      entries.flatMap((entry) => {
        const path = [parent, entry.path ?? ''].filter(Boolean).join('/')
        const first = path.split('/')[0] ?? ''
        return first ? [first] : firstSegments(entry.children ?? [], path)
      })
    const segments = new Set([
      ...firstSegments(routes),
      ...RESERVED_PREFIXES.map((prefix) => prefix.slice(1)),
    ])
    const own = [...segments].filter((segment) => !segment.startsWith(':') && segment !== '*')
    expect(own).toEqual(expect.arrayContaining(['courses', 'auth', 'dms', 'plans', 'histories']))
    expect(own.filter((segment) => !RESERVED_USERNAMES.has(segment))).toEqual([])
  })

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
