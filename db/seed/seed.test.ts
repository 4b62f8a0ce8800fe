import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTemporaryDatabase, type TemporaryDatabase } from '../test-support.ts'
import { demoCourses, demoUsers } from './demo-content.ts'
import { demoLabStories, demoLabs } from './demo-labs.ts'
import { isEmpty, seedDemoContent } from './seed.ts'

const NOW = Date.UTC(2026, 10, 22, 9, 0, 0)

let database: TemporaryDatabase

beforeEach(async () => {
  database = await openTemporaryDatabase()
})

afterEach(async () => {
  await database.remove()
})

describe('seedDemoContent', () => {
  it('fills an empty database once and reports false the second time', async () => {
    const { db } = database
    expect(await isEmpty(db)).toBe(true)

    expect(await seedDemoContent(db, NOW)).toBe(true)
    expect(await isEmpty(db)).toBe(false)
    const users = await db.selectFrom('users').select('username').execute()
    const courses = await db.selectFrom('courses').select('id').execute()
    expect(users).toHaveLength(demoUsers.length)
    expect(courses).toHaveLength(demoCourses.length)

    expect(await seedDemoContent(db, NOW + 1_000)).toBe(false)
    expect(await db.selectFrom('users').select('id').execute()).toHaveLength(demoUsers.length)
    expect(await db.selectFrom('courses').select('id').execute()).toHaveLength(demoCourses.length)
  })

  it('adds nothing to a database that already has a user', async () => {
    const { db } = database
    await db
      .insertInto('users')
      .values({ id: 'u', username: 'someone', display_name: 'x', created_at: 1, updated_at: 1 })
      .execute()
    expect(await seedDemoContent(db, NOW)).toBe(false)
    expect(await db.selectFrom('users').select('id').execute()).toHaveLength(1)
    expect(await db.selectFrom('courses').select('id').execute()).toEqual([])
  })

  it('publishes every course in the past, each by its demo author, with a URL-safe id', async () => {
    const { db } = database
    await seedDemoContent(db, NOW)
    const rows = await db
      .selectFrom('courses')
      .innerJoin('users', 'users.id', 'courses.owner_id')
      .select([
        'courses.id',
        'courses.title',
        'courses.status',
        'courses.published_at',
        'users.username',
      ])
      .execute()

    for (const row of rows) {
      expect(row.status).toBe('published')
      expect(row.published_at).toBeLessThan(NOW)
      expect(row.id).toMatch(/^[0-9a-z]{16}$/)
      const demo = demoCourses.find((course) => course.title === row.title)
      expect(demo?.author).toBe(row.username)
    }
    expect(new Set(rows.map((row) => row.published_at)).size).toBe(rows.length)
  })

  it('joins every demo user before now', async () => {
    const { db } = database
    await seedDemoContent(db, NOW)
    const users = await db.selectFrom('users').selectAll().execute()
    expect(users.map((user) => user.username).sort()).toEqual(
      demoUsers.map((user) => user.username).sort(),
    )
    for (const user of users) expect(user.created_at).toBeLessThan(NOW)
  })
  it('publishes the demo labs and their stories, each story linked to its author’s lab', async () => {
    const { db } = database
    await seedDemoContent(db, NOW)
    const labs = await db
      .selectFrom('labs')
      .innerJoin('users', 'users.id', 'labs.owner_id')
      .select(['labs.id', 'labs.title', 'labs.status', 'labs.published_at', 'users.username'])
      .execute()
    expect(labs.map((lab) => lab.title).sort()).toEqual(demoLabs.map((lab) => lab.title).sort())
    const stories = await db
      .selectFrom('lab_stories')
      .innerJoin('users', 'users.id', 'lab_stories.owner_id')
      .leftJoin('labs', 'labs.id', 'lab_stories.lab_id')
      .select([
        'lab_stories.title',
        'lab_stories.status',
        'lab_stories.published_at',
        'users.username',
        'labs.owner_id as labOwner',
        'labs.title as labTitle',
        'lab_stories.owner_id',
      ])
      .execute()
    expect(stories).toHaveLength(demoLabStories.length)
    for (const row of [...labs, ...stories]) {
      expect(row.status).toBe('published')
      expect(row.published_at).toBeLessThan(NOW)
    }
    for (const story of stories) {
      const demo = demoLabStories.find((candidate) => candidate.title === story.title)
      expect(demo?.author).toBe(story.username)
      if (demo?.lab) expect(story.labOwner).toBe(story.owner_id)
      else expect(story.labTitle).toBeNull()
    }
    expect(await db.selectFrom('lab_story_tags').select('tag_id').execute()).not.toEqual([])
  })
})
