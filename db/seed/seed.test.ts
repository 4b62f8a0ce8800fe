import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTemporaryDatabase, type TemporaryDatabase } from '#db/test-support.ts'
import { listComments } from '#features/social/comments.server.ts'
import { readLikes } from '#features/social/likes.server.ts'
import { listPublishedStudies } from '#features/studies/study-lists.server.ts'
import { readStudyForViewer } from '#features/studies/study-view.server.ts'
import { tagsOfItems } from '#features/tags/item-tags.server.ts'
import { createMarkdownRenderer } from '#server/markdown-renderer.ts'
import { demoCourses, demoUsers } from './demo-content.ts'
import { demoLabStories, demoLabs } from './demo-labs.ts'
import { demoComments, demoFollows, demoLikes, demoStudies } from './demo-social.ts'
import { isEmpty, seedDemoContent } from './seed.ts'

const markdown = createMarkdownRenderer()
afterAll(() => markdown.close())

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
    for (const table of [
      'courses',
      'studies',
      'labs',
      'tags',
      'follows',
      'likes',
      'comments',
      'notifications',
    ] as const) {
      expect(await db.selectFrom(table).select('created_at').execute(), table).toEqual([])
    }
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

  it('tags every demo course in its author’s order', async () => {
    const { db } = database
    await seedDemoContent(db, NOW)
    const courses = await db.selectFrom('courses').select(['id', 'title']).execute()
    const tags = await tagsOfItems(
      db,
      'course_tags',
      courses.map((course) => course.id),
    )
    for (const course of courses) {
      const demo = demoCourses.find((candidate) => candidate.title === course.title)
      expect(tags.get(course.id), course.title).toEqual(demo?.tags)
      expect(demo?.tags.length).toBeGreaterThan(0)
    }
  })

  it('publishes the demo studies with their notes and tags, in the studies list', async () => {
    const { db } = database
    await seedDemoContent(db, NOW)
    const page = await listPublishedStudies(db, { limit: 50 })
    expect(page.items.map((card) => card.title).sort()).toEqual(
      demoStudies.map((study) => study.title).sort(),
    )
    for (const card of page.items) {
      const demo = demoStudies.find((study) => study.title === card.title)
      expect(card.author.username).toBe(demo?.author)
      expect(card.tags).toEqual(demo?.tags)
      expect(card.publishedAt).toBeLessThan(NOW)
      const view = await readStudyForViewer(
        db,
        { username: card.author.username, studyId: card.id },
        undefined,
      )
      expect(view.notes).toBe(demo?.notes)
    }
    // Published as the editor publishes: the author's history records it.
    const history = await db
      .selectFrom('history_events')
      .select('subject_id')
      .where('subject_kind', '=', 'study')
      .where('kind', '=', 'published')
      .execute()
    expect(history).toHaveLength(demoStudies.length)
  })

  it('has the demo users follow, like and comment on each other, each owner notified', async () => {
    const { db } = database
    await seedDemoContent(db, NOW)
    const follows = await db
      .selectFrom('follows')
      .innerJoin('users as follower', 'follower.id', 'follows.follower_id')
      .innerJoin('users as followee', 'followee.id', 'follows.followee_id')
      .select(['follower.username as follower', 'followee.username as followee'])
      .execute()
    expect(follows.map((row) => [row.follower, row.followee]).sort()).toEqual(
      [...demoFollows].sort(),
    )

    const likes = await db.selectFrom('likes').selectAll().execute()
    expect(likes).toHaveLength(demoLikes.length)
    // Two demo users like the first HTML course: a guest sees both.
    const htmlCourse = await db
      .selectFrom('courses')
      .select('id')
      .where('title', '=', demoCourses[0]?.title ?? '')
      .executeTakeFirstOrThrow()
    expect(await readLikes(db, undefined, { kind: 'course', id: htmlCourse.id })).toEqual({
      count: demoLikes.filter((like) => like.title === demoCourses[0]?.title).length,
      liked: false,
    })
    expect(demoLikes.filter((like) => like.title === demoCourses[0]?.title)).toHaveLength(2)

    const courseId = await db
      .selectFrom('courses')
      .select('id')
      .where('title', '=', demoComments[0]?.title ?? '')
      .executeTakeFirstOrThrow()
    const thread = await listComments(
      db,
      markdown,
      undefined,
      { kind: 'course', id: courseId.id },
      {},
    )
    expect(thread.items[0]?.body).toBe(demoComments[0]?.body)
    expect(thread.items[0]?.replies.map((reply) => reply.body)).toEqual(
      demoComments[0]?.replies?.map((reply) => reply.body),
    )
    const comments = await db.selectFrom('comments').select('id').execute()
    const replies = demoComments.flatMap((comment) => comment.replies ?? [])
    expect(comments).toHaveLength(demoComments.length + replies.length)

    const notifications = await db
      .selectFrom('notifications')
      .select(['kind', 'recipient_id', 'actor_id', 'created_at'])
      .execute()
    const count = (kind: string) => notifications.filter((row) => row.kind === kind).length
    expect(count('follow')).toBe(demoFollows.length)
    expect(count('reply')).toBe(replies.length)
    expect(count('like')).toBeGreaterThan(0)
    expect(count('comment')).toBeGreaterThan(0)
    for (const row of notifications) {
      expect(row.recipient_id).not.toBe(row.actor_id)
      expect(row.created_at).toBeLessThan(NOW)
    }
  })
})
