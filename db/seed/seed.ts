import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { replaceItemTags } from '../../features/tags/item-tags.server.ts'
import { newContentId } from '../ids.ts'
import type { DB } from '../schema.ts'
import { demoCourses, demoUsers } from './demo-content.ts'
import { demoLabStories, demoLabs } from './demo-labs.ts'
import { demoLessons } from './demo-lessons.ts'

const HOUR_MS = 3_600_000

/** True when the database holds no users: the signal for a first start. */
export async function isEmpty(db: Kysely<DB>): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst()
  return row === undefined
}

/**
 * Fills an empty database with Japanese demo users, courses, labs and lab stories, all or nothing.
 * Returns false (and writes nothing) when the database already has users.
 */
export async function seedDemoContent(db: Kysely<DB>, now = Date.now()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await isEmpty(trx))) return false
    const userIds = new Map<string, string>()
    for (const [index, user] of demoUsers.entries()) {
      const id = randomUUID()
      userIds.set(user.username, id)
      const joinedAt = now - (demoUsers.length - index) * 30 * 24 * HOUR_MS
      await trx
        .insertInto('users')
        .values({
          id,
          username: user.username,
          display_name: user.displayName,
          bio: user.bio,
          created_at: joinedAt,
          updated_at: joinedAt,
        })
        .execute()
    }
    // Oldest first, so the first course in the list is the newest in the catalogue… reversed
    // here so the catalogue opens with the first lessons a beginner should take.
    const courses = [...demoCourses].reverse()
    for (const [index, course] of courses.entries()) {
      const ownerId = userIds.get(course.author)
      if (!ownerId)
        throw new Error(`Demo course "${course.title}" names unknown author ${course.author}`)
      const publishedAt = now - (courses.length - index) * 6 * HOUR_MS
      const courseId = newContentId()
      await trx
        .insertInto('courses')
        .values({
          id: courseId,
          owner_id: ownerId,
          title: course.title,
          summary: course.summary,
          level: course.level,
          access: course.access,
          status: 'published',
          published_at: publishedAt,
          created_at: publishedAt,
          updated_at: publishedAt,
        })
        .execute()
      for (const [position, section] of (demoLessons[course.title] ?? []).entries()) {
        const sectionId = newContentId()
        const at = { created_at: publishedAt, updated_at: publishedAt }
        await trx
          .insertInto('course_sections')
          .values({ id: sectionId, course_id: courseId, title: section.title, position, ...at })
          .execute()
        await trx
          .insertInto('lessons')
          .values(
            section.lessons.map((lesson, lessonPosition) => ({
              id: newContentId(),
              course_id: courseId,
              section_id: sectionId,
              title: lesson.title,
              body: lesson.body,
              access: lesson.access ?? 'free',
              position: lessonPosition,
              ...at,
            })),
          )
          .execute()
      }
    }
    await seedLabs(trx, userIds, now)
    return true
  })
}

/** Published demo labs, then their stories (a little later), each by its demo author. */
async function seedLabs(trx: Kysely<DB>, userIds: Map<string, string>, now: number) {
  const ownerOf = (username: string) => {
    const id = userIds.get(username)
    if (!id) throw new Error(`Demo lab content names unknown author ${username}`)
    return id
  }
  const labIds = new Map<string, string>()
  for (const [index, lab] of demoLabs.entries()) {
    const id = newContentId()
    labIds.set(lab.key, id)
    const publishedAt = now - (demoLabs.length - index) * 5 * HOUR_MS
    await trx
      .insertInto('labs')
      .values({
        id,
        owner_id: ownerOf(lab.author),
        title: lab.title,
        description: lab.description,
        repository_url: lab.repositoryUrl,
        demo_url: lab.demoUrl,
        status: 'published',
        published_at: publishedAt,
        created_at: publishedAt,
        updated_at: publishedAt,
      })
      .execute()
    await replaceItemTags(trx, 'lab_tags', id, lab.tags, publishedAt)
  }
  for (const [index, story] of demoLabStories.entries()) {
    const id = newContentId()
    const publishedAt = now - (demoLabStories.length - index) * 3 * HOUR_MS + HOUR_MS / 2
    await trx
      .insertInto('lab_stories')
      .values({
        id,
        owner_id: ownerOf(story.author),
        lab_id: story.lab === null ? null : (labIds.get(story.lab) ?? null),
        title: story.title,
        body: story.body,
        status: 'published',
        published_at: publishedAt,
        created_at: publishedAt,
        updated_at: publishedAt,
      })
      .execute()
    await replaceItemTags(trx, 'lab_story_tags', id, story.tags, publishedAt)
  }
}
