import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DB } from '#db/schema.ts'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import type { Actor } from '#features/actor.ts'
import { insertTestUsers, refused, snapshotTables } from '#features/content-test-support.ts'
import { pageQuery } from '#features/pagination.ts'
import { readProfileHeader } from '#features/users/profiles.server.ts'
import { listFeed } from './feed.server.ts'
import { follow, followState, listFollows, unfollow } from './follows.server.ts'

const NOW = Date.UTC(2026, 10, 23, 9, 0, 0)
const actorOf = (name: string): Actor => ({ userId: `user-${name}`, isAdmin: false })
const hana = actorOf('hana')
const taro = actorOf('taro')

describe.each(testEngines)('follows on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  let db: Kysely<DB>

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    db = database.db
    await insertTestUsers(db, ['hana', 'taro', 'jiro', 'saki', 'ken'], NOW)
  })
  afterAll(async () => {
    await database.remove()
  })
  beforeEach(async () => {
    await db.deleteFrom('follows').execute()
    await db.deleteFrom('notifications').execute()
    await db.deleteFrom('studies').execute()
    await db.deleteFrom('lab_stories').execute()
  })

  it('follows and unfollows, with counts taken from the rows', async () => {
    expect(await follow(db, hana, 'Taro', NOW)).toEqual({
      following: true,
      followers: 1,
      followees: 0,
    })
    expect(await followState(db, hana, 'taro')).toEqual({
      following: true,
      followers: 1,
      followees: 0,
    })
    expect(await followState(db, undefined, 'taro')).toMatchObject({ following: false })
    expect((await readProfileHeader(db, 'hana')).counts).toEqual({
      followers: 0,
      followees: 1,
      published: 0,
    })
    expect(await unfollow(db, hana, 'taro')).toEqual({
      following: false,
      followers: 0,
      followees: 0,
    })
  })

  it('refuses oneself, a second follow, an unknown user and guests, changing nothing', async () => {
    await follow(db, hana, 'taro', NOW)
    const before = await snapshotTables(db, ['follows'])
    const self = await refused(follow(db, hana, 'hana', NOW), 'VALIDATION_FAILED')
    expect(self.fields).toEqual({ username: ['自分自身はフォローできません'] })
    expect((await refused(follow(db, hana, 'taro', NOW + 1), 'CONFLICT')).message).toBe(
      'すでにフォローしています',
    )
    await refused(follow(db, hana, 'nobody', NOW), 'NOT_FOUND')
    await refused(follow(db, undefined, 'taro', NOW), 'SIGN_IN_REQUIRED')
    await refused(unfollow(db, taro, 'hana'), 'CONFLICT')
    await refused(unfollow(db, hana, 'nobody'), 'NOT_FOUND')
    expect(await snapshotTables(db, ['follows'])).toEqual(before)
    expect(await followState(db, undefined, 'taro')).toMatchObject({ followers: 1 })
  })

  it('tells the followed person once; unfollowing takes back the unread notice', async () => {
    const notices = () =>
      db
        .selectFrom('notifications')
        .select(['recipient_id', 'actor_id', 'kind'])
        .orderBy('created_at')
        .execute()
    await follow(db, hana, 'taro', NOW)
    await refused(follow(db, hana, 'taro', NOW + 1), 'CONFLICT')
    expect(await notices()).toEqual([
      { recipient_id: taro.userId, actor_id: hana.userId, kind: 'follow' },
    ])
    await unfollow(db, hana, 'taro')
    expect(await notices()).toEqual([])
  })

  it('keeps one row when two requests follow at once', async () => {
    const results = await Promise.allSettled([
      follow(db, hana, 'taro', NOW),
      follow(db, hana, 'taro', NOW),
    ])
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    expect(await followState(db, hana, 'taro')).toMatchObject({ followers: 1 })
  })

  it('lists followers and following newest first, a page at a time', async () => {
    for (const [index, name] of ['jiro', 'saki', 'ken', 'hana'].entries()) {
      await follow(db, actorOf(name), 'taro', NOW + index * 1000)
    }
    await follow(db, taro, 'saki', NOW)
    const first = await listFollows(db, 'taro', 'followers', pageQuery.parse({ limit: 3 }))
    expect(first.items.map((card) => card.username)).toEqual(['hana', 'ken', 'saki'])
    expect(first.nextCursor).not.toBeNull()
    const second = await listFollows(
      db,
      'taro',
      'followers',
      pageQuery.parse({ limit: 3, cursor: first.nextCursor }),
    )
    expect(second).toMatchObject({ items: [{ username: 'jiro' }], nextCursor: null })
    const following = await listFollows(db, 'taro', 'following', pageQuery.parse({}))
    expect(following.items).toEqual([
      expect.objectContaining({ username: 'saki', displayName: 'saki さん', followedAt: NOW }),
    ])
    await refused(listFollows(db, 'nobody', 'followers', pageQuery.parse({})), 'NOT_FOUND')
  })

  it("feeds the followed people's published items, newest first across kinds", async () => {
    const publish = async (
      table: 'studies' | 'lab_stories',
      id: string,
      owner: string,
      publishedAt: number | null,
    ) =>
      db
        .insertInto(table)
        .values({
          id,
          owner_id: `user-${owner}`,
          title: `${owner} の ${id}`,
          status: publishedAt === null ? 'draft' : 'published',
          published_at: publishedAt,
          created_at: NOW,
          updated_at: NOW,
        })
        .execute()
    await publish('studies', 's1', 'taro', NOW + 1)
    await publish('lab_stories', 'l1', 'saki', NOW + 3)
    await publish('studies', 's2', 'saki', NOW + 2)
    await publish('studies', 's3', 'taro', null)
    await publish('studies', 's4', 'jiro', NOW + 5)
    await follow(db, hana, 'taro', NOW)
    await follow(db, hana, 'saki', NOW)

    const first = await listFeed(db, hana, pageQuery.parse({ limit: 2 }))
    expect(first.items.map((item) => [item.kind, item.path])).toEqual([
      ['lab_story', '/saki/labs_stories/l1'],
      ['study', '/saki/studies/s2'],
    ])
    const second = await listFeed(db, hana, pageQuery.parse({ limit: 2, cursor: first.nextCursor }))
    expect(second.items.map((item) => item.id)).toEqual(['s1'])
    expect(second.nextCursor).toBeNull()
    expect((await listFeed(db, taro, pageQuery.parse({}))).items).toEqual([])
    await refused(listFeed(db, undefined, pageQuery.parse({})), 'SIGN_IN_REQUIRED')
    expect((await readProfileHeader(db, 'saki')).counts.published).toBe(2)
  })
})
