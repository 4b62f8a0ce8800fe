import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { newContentId } from '#db/ids.ts'
import type { ContentKind, DB } from '#db/schema.ts'
import { markPublished } from '#features/editable-item.server.ts'
import { questionFields } from '#features/exercises/question-input.ts'
import { insertQuestion } from '#features/exercises/questions.server.ts'
import { newComment } from '#features/social/comment-input.ts'
import { insertComment, notifyOfComment } from '#features/social/comments.server.ts'
import { notify, notifyFollow } from '#features/social/notifications.server.ts'
import type { Subject } from '#features/social/subjects.server.ts'
import { studyFields } from '#features/studies/study-input.ts'
import { replaceItemTags } from '#features/tags/item-tags.server.ts'
import { tagListSchema } from '#features/tags/normalize.ts'
import { demoCourses, demoUsers } from './demo-content.ts'
import { demoCoverPng } from './demo-covers.ts'
import { demoExercises } from './demo-exercises.ts'
import { demoLabStories, demoLabs } from './demo-labs.ts'
import { demoLessons } from './demo-lessons.ts'
import {
  type DemoSubject,
  demoComments,
  demoFollows,
  demoLikes,
  demoStudies,
} from './demo-social.ts'

const HOUR_MS = 3_600_000

/** True when the database holds no users: the signal for a first start. */
export async function isEmpty(db: Kysely<DB>): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst()
  return row === undefined
}

/**
 * Where the seed puts the pictures it draws: object storage, each stored exactly as if the demo
 * user had uploaded it into their own public folder (so the editors accept and replace it like
 * any upload of theirs).
 */
export type DemoImageStore = {
  /** Stores a PNG as `userId`'s upload into their folder `folder` (e.g. `covers`); its key. */
  putOwnImage(userId: string, folder: string, png: Uint8Array): Promise<string>
}

/**
 * Fills an empty database with Japanese demo users, courses (with lessons and tags), studies,
 * labs and lab stories, and the follows, likes and comments between the demo users, all or
 * nothing. With `images`, the demo courses and labs then get generated covers.
 * Returns false (and writes nothing) when the database already has users.
 */
export async function seedDemoContent(
  db: Kysely<DB>,
  now = Date.now(),
  images?: DemoImageStore,
): Promise<boolean> {
  // Long by design: the demo content written out, all in one transaction.
  const seeded = await db.transaction().execute(async (trx) => {
    if (!(await isEmpty(trx))) return undefined
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
    const subjectIds = new Map<string, string>()
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
      subjectIds.set(subjectKey({ kind: 'course', title: course.title }), courseId)
      // Parsed as the course editor's form is, so a demo tag is one a user could have typed.
      await replaceItemTags(
        trx,
        'course_tags',
        courseId,
        tagListSchema.parse(course.tags),
        publishedAt,
      )
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
    await seedStudies(trx, userIds, subjectIds, now)
    await seedLabs(trx, userIds, subjectIds, now)
    await seedSocial(trx, userIds, subjectIds, now)
    return { userIds, subjectIds }
  })
  if (!seeded) return false
  // Object storage keeps its index in the database too: it is written after the content has
  // committed, never inside its transaction. A cover that fails to store leaves the item
  // without one, as a new course is.
  if (images) await addDemoCovers(db, images, seeded.userIds, seeded.subjectIds)
  return true
}

/**
 * A drawn cover for every demo course (its cover image) and lab (its first screenshot), one
 * colour each, uploaded as its author's own image.
 */
async function addDemoCovers(
  db: Kysely<DB>,
  images: DemoImageStore,
  userIds: Map<string, string>,
  subjectIds: Map<string, string>,
) {
  const items = [
    ...demoCourses.map((course) => ({ kind: 'course' as const, ...course })),
    ...demoLabs.map((lab) => ({ kind: 'lab' as const, ...lab })),
  ]
  for (const [index, item] of items.entries()) {
    const id = idOf(subjectIds, subjectKey({ kind: item.kind, title: item.title }))
    const ownerId = idOf(userIds, item.author)
    const png = demoCoverPng(item.title, index)
    if (item.kind === 'course') {
      const key = await images.putOwnImage(ownerId, 'covers', png)
      await db.updateTable('courses').set({ cover_key: key }).where('id', '=', id).execute()
    } else {
      const key = await images.putOwnImage(ownerId, 'labs', png)
      await db
        .insertInto('lab_screenshots')
        .values({ lab_id: id, object_key: key, position: 0 })
        .execute()
    }
  }
}

/** Published demo labs, then their stories (a little later), each by its demo author. */
async function seedLabs(
  trx: Kysely<DB>,
  userIds: Map<string, string>,
  subjectIds: Map<string, string>,
  now: number,
) {
  const ownerOf = (username: string) => {
    const id = userIds.get(username)
    if (!id) throw new Error(`Demo lab content names unknown author ${username}`)
    return id
  }
  const labIds = new Map<string, string>()
  for (const [index, lab] of demoLabs.entries()) {
    const id = newContentId()
    labIds.set(lab.key, id)
    subjectIds.set(subjectKey({ kind: 'lab', title: lab.title }), id)
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
    subjectIds.set(subjectKey({ kind: 'lab_story', title: story.title }), id)
  }
}

/** The key of a demo item in `subjectIds`: kind and title name it. */
function subjectKey(subject: DemoSubject): string {
  return `${subject.kind}:${subject.title}`
}

function idOf(ids: Map<string, string>, key: string): string {
  const id = ids.get(key)
  if (!id) throw new Error(`Demo content names unknown ${key}`)
  return id
}

/**
 * Published demo studies: each checked by the study editor's own rules, saved as a draft and
 * then published as the editor does (so the author's history records it).
 */
async function seedStudies(
  trx: Kysely<DB>,
  userIds: Map<string, string>,
  subjectIds: Map<string, string>,
  now: number,
) {
  for (const [index, study] of demoStudies.entries()) {
    const fields = studyFields.parse(study)
    const ownerId = idOf(userIds, study.author)
    const publishedAt = now - (demoStudies.length - index) * 4 * HOUR_MS - HOUR_MS / 4
    const id = newContentId()
    await trx
      .insertInto('studies')
      .values({
        id,
        owner_id: ownerId,
        title: fields.title,
        summary: fields.summary,
        body: fields.notes,
        status: 'draft',
        published_at: null,
        created_at: publishedAt - HOUR_MS,
        updated_at: publishedAt,
      })
      .execute()
    await replaceItemTags(trx, 'study_tags', id, fields.tags, publishedAt)
    for (const [position, question] of (demoExercises[study.title] ?? []).entries()) {
      const checked = { id: newContentId(), studyId: id, position }
      const questionAt = publishedAt - HOUR_MS / 2
      await insertQuestion(trx, { ...checked, fields: questionFields.parse(question) }, questionAt)
    }
    await markPublished(trx, 'studies', { id, owner_id: ownerId }, 'study', publishedAt)
    subjectIds.set(subjectKey({ kind: 'study', title: study.title }), id)
  }
}

/**
 * Follows, likes and comments between the demo users, each with the notification the app
 * would have sent, spread over the last hours before `now`.
 */
async function seedSocial(
  trx: Kysely<DB>,
  userIds: Map<string, string>,
  subjectIds: Map<string, string>,
  now: number,
) {
  let at = now - 2 * HOUR_MS
  const next = () => {
    at += 60_000
    return at
  }
  for (const [follower, followee] of demoFollows) {
    const followerId = idOf(userIds, follower)
    const followeeId = idOf(userIds, followee)
    const created = next()
    await trx
      .insertInto('follows')
      .values({
        id: newContentId(),
        follower_id: followerId,
        followee_id: followeeId,
        created_at: created,
      })
      .execute()
    await notifyFollow(trx, { followerId, followeeId }, created)
  }
  const ownerOf = async (kind: ContentKind, id: string) => {
    const table = { course: 'courses', study: 'studies', lab: 'labs', lab_story: 'lab_stories' }[
      kind
    ] as 'courses'
    const row = await trx
      .selectFrom(table)
      .select('owner_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    return row.owner_id
  }
  for (const like of demoLikes) {
    const subject = { kind: like.kind, id: idOf(subjectIds, subjectKey(like)) }
    const userId = idOf(userIds, like.user)
    const created = next()
    await trx
      .insertInto('likes')
      .values({
        user_id: userId,
        subject_kind: subject.kind,
        subject_id: subject.id,
        created_at: created,
      })
      .execute()
    const recipientId = await ownerOf(subject.kind, subject.id)
    await notify(trx, { recipientId, actorId: userId, kind: 'like', subject }, created)
  }
  for (const comment of demoComments) {
    const subject = { kind: comment.kind, id: idOf(subjectIds, subjectKey(comment)) }
    const ownerId = await ownerOf(subject.kind, subject.id)
    const authorId = idOf(userIds, comment.author)
    const parentId = await seedComment(
      trx,
      { subject, ownerId, parent: null },
      authorId,
      comment.body,
      next(),
    )
    for (const reply of comment.replies ?? []) {
      const parent = { id: parentId, authorId }
      await seedComment(
        trx,
        { subject, ownerId, parent },
        idOf(userIds, reply.author),
        reply.body,
        next(),
      )
    }
  }
}

/** One comment as postComment stores it, its body checked by the comment form's rules. */
async function seedComment(
  trx: Kysely<DB>,
  about: { subject: Subject; ownerId: string; parent: { id: string; authorId: string } | null },
  authorId: string,
  body: string,
  now: number,
): Promise<string> {
  const { subject, ownerId, parent } = about
  const checked = newComment.parse({ body }).body
  const commentId = await insertComment(
    trx,
    { subject, parentId: parent?.id ?? null, authorId, body: checked },
    now,
  )
  await notifyOfComment(
    trx,
    { subject, ownerId, parentAuthorId: parent?.authorId ?? null },
    { actorId: authorId, commentId },
    now,
  )
  return commentId
}
