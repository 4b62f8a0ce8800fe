import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DB } from '#db/schema.ts'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import type { Actor } from '#features/actor.ts'
import { insertTestUsers, refused, snapshotTables } from '#features/content-test-support.ts'
import { createCourse, deleteCourse } from '#features/courses/course-editing.server.ts'
import { UploadedObjects } from '#features/images/test-support.ts'
import {
  createStudy,
  deleteStudy,
  publishStudy,
  unpublishStudy,
} from '#features/studies/study-editing.server.ts'
import { deleteProfile } from '#features/users/accounts.server.ts'
import { createMarkdownRenderer } from '#server/markdown-renderer.ts'
import { COMMENT_MAX_LENGTH } from './comment-input.ts'
import { deleteComment, listComments, postComment, updateComment } from './comments.server.ts'
import { likeState, likeSubject, readLikes, unlikeSubject } from './likes.server.ts'
import {
  countUnreadNotifications,
  listNotifications,
  markNotificationsRead,
  notifyFollow,
} from './notifications.server.ts'

/** No uploaded objects: bodies here show no images of the site's storage. */
const noImages = new UploadedObjects()

const NOW = Date.UTC(2026, 10, 23, 9, 0, 0)
const FANS = ['fan1', 'fan2', 'fan3', 'fan4', 'fan5', 'fan6', 'fan7', 'fan8']
const actorOf = (name: string): Actor => ({ userId: `user-${name}`, isAdmin: false })
const author = actorOf('author')
const reader = actorOf('reader')
const admin: Actor = { userId: 'user-admin', isAdmin: true }
const markdown = createMarkdownRenderer()
afterAll(() => markdown.close())

function socialRows(db: Kysely<DB>) {
  return snapshotTables(db, ['likes', 'comments', 'notifications'])
}

describe.each(testEngines)('likes, comments and notifications on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  let db: Kysely<DB>

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    db = database.db
    await insertTestUsers(db, ['author', 'reader', 'admin', ...FANS], NOW)
  })
  afterAll(async () => {
    await database.remove()
  })
  beforeEach(async () => {
    await db.deleteFrom('notifications').execute()
    await db.deleteFrom('comments').execute()
    await db.deleteFrom('likes').execute()
    await db.deleteFrom('studies').execute()
    await db.deleteFrom('courses').execute()
  })

  async function study(status: 'draft' | 'published' = 'published', owner = author) {
    const { id } = await createStudy(db, noImages, owner, { title: '正規表現', notes: '本文' }, NOW)
    if (status === 'published') await publishStudy(db, owner, id, { revision: 1 }, NOW)
    return { kind: 'study' as const, id }
  }

  describe('likes', () => {
    it('counts liking twice once, notifies the owner once, and unlikes', async () => {
      const subject = await study()
      expect(await likeSubject(db, reader, subject, NOW)).toEqual({ count: 1, liked: true })
      expect(await likeSubject(db, reader, subject, NOW)).toEqual({ count: 1, liked: true })
      expect(await readLikes(db, author, subject)).toEqual({ count: 1, liked: false })
      expect(await countUnreadNotifications(db, author.userId)).toBe(1)

      expect(await unlikeSubject(db, reader, subject)).toEqual({ count: 0, liked: false })
      expect(await unlikeSubject(db, reader, subject)).toEqual({ count: 0, liked: false })
      // The like was taken back before the owner saw it: so is its notification.
      expect(await countUnreadNotifications(db, author.userId)).toBe(0)
    })

    it('keeps the count right under concurrent likes and unlikes', async () => {
      const subject = await study()
      const fans = FANS.map(actorOf)
      await Promise.all(fans.map((fan) => likeSubject(db, fan, subject, NOW)))
      expect(await likeState(db, subject, undefined)).toEqual({ count: FANS.length, liked: false })

      // Every fan likes again and unlikes at the same time, twice over; whatever order the
      // database ran them in, the count is the number of rows left.
      await Promise.all(
        fans.flatMap((fan) => [
          likeSubject(db, fan, subject, NOW),
          unlikeSubject(db, fan, subject),
          likeSubject(db, fan, subject, NOW),
          unlikeSubject(db, fan, subject),
        ]),
      )
      const rows = await db
        .selectFrom('likes')
        .select('user_id')
        .where('subject_id', '=', subject.id)
        .execute()
      expect(new Set(rows.map((row) => row.user_id)).size).toBe(rows.length)
      expect((await likeState(db, subject, undefined)).count).toBe(rows.length)

      await Promise.all(fans.map((fan) => unlikeSubject(db, fan, subject)))
      expect(await likeState(db, subject, undefined)).toEqual({ count: 0, liked: false })
    })

    it('answers "not found" for a draft the actor cannot see, and changes nothing', async () => {
      const draft = await study('draft')
      const before = await socialRows(db)
      await refused(likeSubject(db, reader, draft, NOW), 'NOT_FOUND')
      await refused(readLikes(db, undefined, draft), 'NOT_FOUND')
      await refused(likeSubject(db, reader, { kind: 'lab', id: 'missing' }, NOW), 'NOT_FOUND')
      await refused(likeSubject(db, undefined, draft, NOW), 'SIGN_IN_REQUIRED')
      const invalid = await refused(
        // @ts-expect-error the boundary refuses what the types forbid
        likeSubject(db, reader, { kind: 'post', id: 'x' }),
        'VALIDATION_FAILED',
      )
      expect(invalid.fields?.kind).toBeDefined()
      expect(await socialRows(db)).toEqual(before)
      // The owner's own like of their draft tells nobody.
      expect(await likeSubject(db, author, draft, NOW)).toEqual({ count: 1, liked: true })
      expect(await countUnreadNotifications(db, author.userId)).toBe(0)
    })
  })

  describe('comments', () => {
    it('posts Markdown rendered by the site renderer, sanitised, with one level of replies', async () => {
      const subject = await study()
      const comment = await postComment(
        db,
        markdown,
        reader,
        subject,
        { body: '**いいね** <script>alert(1)</script><img src=x onerror=alert(1)>' },
        NOW,
      )
      expect(comment.html).toContain('<strong>いいね</strong>')
      // Plain Markdown: the raw HTML is shown as text, never as elements.
      expect(comment.html).not.toMatch(/<script|<img/)
      expect(comment.html).toContain('&#x3C;img src=x onerror=alert(1)>')
      const reply = await postComment(
        db,
        markdown,
        author,
        subject,
        { body: 'ありがとう', parentId: comment.id },
        NOW + 1,
      )
      const refusal = await refused(
        postComment(db, markdown, reader, subject, { body: '再返信', parentId: reply.id }, NOW),
        'VALIDATION_FAILED',
      )
      expect(refusal.fields?.parentId).toEqual(['返信に返信することはできません'])

      const page = await listComments(db, markdown, undefined, subject, {})
      expect(page.total).toBe(2)
      expect(page.items).toHaveLength(1)
      expect(page.items[0]).toMatchObject({
        id: comment.id,
        author: { username: 'reader' },
        canEdit: false,
        canDelete: false,
        replies: [{ id: reply.id, parentId: comment.id, body: 'ありがとう' }],
      })
      expect(await listComments(db, markdown, admin, subject, {})).toMatchObject({
        items: [{ canDelete: true, canEdit: false }],
      })
    })

    it('refuses empty and over-long comments, and comments on deleted content', async () => {
      const subject = await study()
      const before = await socialRows(db)
      const tooLong = await refused(
        postComment(db, markdown, reader, subject, { body: 'あ'.repeat(COMMENT_MAX_LENGTH + 1) }),
        'VALIDATION_FAILED',
      )
      expect(tooLong.fields?.body).toEqual(['コメントは5,000文字以内で入力してください'])
      await refused(postComment(db, markdown, reader, subject, { body: '  ' }), 'VALIDATION_FAILED')
      // Nested past the renderer's bounds: a field error, not a 500 now or a broken page later.
      await expect(
        postComment(db, markdown, reader, subject, { body: '>'.repeat(3000) }),
      ).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        fields: { body: ['引用・リスト・字下げの入れ子は32段までにしてください。'] },
      })
      await deleteStudy(db, author, subject.id)
      await refused(postComment(db, markdown, reader, subject, { body: 'こんにちは' }), 'NOT_FOUND')
      await refused(listComments(db, markdown, reader, subject, {}), 'NOT_FOUND')
      expect(await socialRows(db)).toEqual(before)
    })

    it('pages top-level comments newest first with a cursor', async () => {
      const subject = await study()
      for (let index = 0; index < 5; index++) {
        await postComment(db, markdown, reader, subject, { body: `コメント${index}` }, NOW + index)
      }
      const first = await listComments(db, markdown, undefined, subject, { limit: 2 })
      expect(first.items.map((item) => item.body)).toEqual(['コメント4', 'コメント3'])
      const second = await listComments(db, markdown, undefined, subject, {
        limit: 2,
        cursor: first.nextCursor ?? undefined,
      })
      expect(second.items.map((item) => item.body)).toEqual(['コメント2', 'コメント1'])
      const last = await listComments(db, markdown, undefined, subject, {
        limit: 2,
        cursor: second.nextCursor ?? undefined,
      })
      expect(last.items.map((item) => item.body)).toEqual(['コメント0'])
      expect(last.nextCursor).toBeNull()
      await refused(
        listComments(db, markdown, undefined, subject, { cursor: 'bad!' }),
        'VALIDATION_FAILED',
      )
    })

    it('lets the author edit; the author, the owner or an admin delete', async () => {
      const subject = await study()
      const post = (body: string) => postComment(db, markdown, reader, subject, { body }, NOW)
      const comment = await post('最初の文')
      await refused(
        updateComment(db, markdown, author, comment.id, { body: '改ざん' }),
        'FORBIDDEN',
      )
      await refused(
        updateComment(db, markdown, reader, comment.id, { body: '' }),
        'VALIDATION_FAILED',
      )
      const edited = await updateComment(
        db,
        markdown,
        reader,
        comment.id,
        { body: '直した文' },
        NOW + 1,
      )
      expect(edited).toMatchObject({ body: '直した文', edited: true })

      const stranger = actorOf('fan1')
      await refused(deleteComment(db, stranger, comment.id), 'FORBIDDEN')
      await refused(deleteComment(db, undefined, comment.id), 'SIGN_IN_REQUIRED')
      const reply = await postComment(
        db,
        markdown,
        stranger,
        subject,
        { body: '返信', parentId: comment.id },
        NOW,
      )
      await deleteComment(db, reader, comment.id)
      // The reply went with its comment.
      await refused(deleteComment(db, admin, reply.id), 'NOT_FOUND')
      await deleteComment(db, author, (await post('二つ目')).id)
      await deleteComment(db, admin, (await post('三つ目')).id)
      expect((await listComments(db, markdown, undefined, subject, {})).total).toBe(0)
    })
  })

  describe('deleting content and accounts', () => {
    it('deletes the likes, comments and notifications of a deleted study and course', async () => {
      const subject = await study()
      const course = await createCourse(db, author, { title: 'TypeScript 入門' }, NOW)
      // Publishing needs lessons; the course's state is what matters here.
      await db.updateTable('courses').set({ status: 'published', published_at: NOW }).execute()
      const courseSubject = { kind: 'course' as const, id: course.id }
      for (const item of [subject, courseSubject]) {
        await likeSubject(db, reader, item, NOW)
        await postComment(db, markdown, reader, item, { body: '参考になりました' }, NOW)
      }
      await deleteStudy(db, author, subject.id)
      await deleteCourse(db, author, course.id)
      expect(await socialRows(db)).toEqual({ likes: [], comments: [], notifications: [] })
    })

    it("removes a deleted user's likes, keeps their comments as a former user's, and clears their content's", async () => {
      await insertTestUsers(db, ['leaver'], NOW)
      const leaver = actorOf('leaver')
      const subject = await study()
      const theirs = await study('published', leaver)
      await likeSubject(db, leaver, subject, NOW)
      const comment = await postComment(
        db,
        markdown,
        leaver,
        subject,
        { body: '退会前のコメント' },
        NOW,
      )
      await likeSubject(db, reader, theirs, NOW)
      await postComment(db, markdown, reader, theirs, { body: 'さようなら' }, NOW)

      await deleteProfile(db, leaver.userId)

      expect(await likeState(db, subject, undefined)).toEqual({ count: 0, liked: false })
      const page = await listComments(db, markdown, author, subject, {})
      expect(page.items).toMatchObject([{ id: comment.id, author: null, canDelete: true }])
      const orphans = await db
        .selectFrom('likes')
        .select('subject_id')
        .where('subject_id', '=', theirs.id)
        .union(db.selectFrom('comments').select('subject_id').where('subject_id', '=', theirs.id))
        .execute()
      expect(orphans).toEqual([])
      // The notifications they caused went with them.
      expect(await countUnreadNotifications(db, author.userId)).toBe(0)
      // A session that outlived the account cannot like or comment any more.
      const before = await socialRows(db)
      await refused(likeSubject(db, leaver, subject, NOW), 'SIGN_IN_REQUIRED')
      await refused(
        postComment(db, markdown, leaver, subject, { body: 'まだいます' }),
        'SIGN_IN_REQUIRED',
      )
      expect(await socialRows(db)).toEqual(before)
    })
  })

  describe('notifications', () => {
    it('lists likes, comments, replies and follows for their recipient, newest first, and marks them read', async () => {
      const subject = await study()
      await likeSubject(db, reader, subject, NOW)
      const comment = await postComment(
        db,
        markdown,
        reader,
        subject,
        { body: '質問です' },
        NOW + 1,
      )
      await postComment(
        db,
        markdown,
        author,
        subject,
        { body: '回答です', parentId: comment.id },
        NOW + 2,
      )
      await notifyFollow(db, { followerId: reader.userId, followeeId: author.userId }, NOW + 3)
      await notifyFollow(db, { followerId: author.userId, followeeId: author.userId }, NOW + 4)

      expect(await countUnreadNotifications(db, author.userId)).toBe(3)
      const mine = await listNotifications(db, author, {})
      expect(mine.items.map((item) => item.kind)).toEqual(['follow', 'comment', 'like'])
      expect(mine.items[1]).toMatchObject({
        actor: { username: 'reader' },
        subject: { kind: 'study', title: '正規表現', path: `/author/studies/${subject.id}` },
        commentId: comment.id,
        read: false,
      })
      expect(mine.items[0]?.subject).toBeNull()
      const theirs = await listNotifications(db, reader, {})
      expect(theirs.items.map((item) => item.kind)).toEqual(['reply'])

      await markNotificationsRead(db, author, NOW + 5)
      expect(await countUnreadNotifications(db, author.userId)).toBe(0)
      expect(await countUnreadNotifications(db, reader.userId)).toBe(1)
      expect((await listNotifications(db, author, {})).items.every((item) => item.read)).toBe(true)
      await refused(listNotifications(db, undefined, {}), 'SIGN_IN_REQUIRED')

      // Taken back to draft, the study's title no longer reaches the reader through a reply.
      await unpublishStudy(db, noImages, author, subject.id, { revision: 2 })
      expect((await listNotifications(db, reader, {})).items).toEqual([])
      expect((await listNotifications(db, author, {})).items).toHaveLength(3)
    })

    it('pages with a cursor', async () => {
      for (let index = 0; index < 3; index++) {
        await notifyFollow(
          db,
          { followerId: `user-${FANS[index]}`, followeeId: author.userId },
          NOW + index,
        )
      }
      const first = await listNotifications(db, author, { limit: 2 })
      expect(first.items.map((item) => item.actor.username)).toEqual(['fan3', 'fan2'])
      const rest = await listNotifications(db, author, {
        limit: 2,
        cursor: first.nextCursor ?? undefined,
      })
      expect(rest.items.map((item) => item.actor.username)).toEqual(['fan1'])
      expect(rest.nextCursor).toBeNull()
    })
  })
})
