import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DB } from '#db/schema.ts'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import type { Actor } from '#features/actor.ts'
import { insertTestUsers, refused } from '#features/content-test-support.ts'
import { readCourseForViewer } from '#features/courses/course-view.server.ts'
import { listFeed } from '#features/follows/feed.server.ts'
import type { MessageEvent } from '#features/messages/events.ts'
import { listMessages, listRoomChanges } from '#features/messages/message-history.server.ts'
import { sendMessage } from '#features/messages/message-writes.server.ts'
import { listRooms, openRoom } from '#features/messages/rooms.server.ts'
import { countUnreadMessages } from '#features/messages/unread.server.ts'
import { searchPublishedContent } from '#features/search/search.server.ts'
import { searchQuery } from '#features/search/search-query.ts'
import { listComments } from '#features/social/comments.server.ts'
import { likeSubject } from '#features/social/likes.server.ts'
import { listPublishedStudies } from '#features/studies/study-lists.server.ts'
import { readStudyForViewer } from '#features/studies/study-view.server.ts'
import { isSessionActive } from '#server/identity/tokens/refresh-tokens.ts'
import { createMarkdownRenderer } from '#server/markdown-renderer.ts'
import { memoryRateLimiter } from '#server/rate-limiter.ts'
import {
  dismissReports,
  fileReport,
  listReportQueue,
  type Moderator,
  readModerationItem,
  setHidden,
  setSuspended,
} from './moderation.server.ts'

const NOW = Date.UTC(2026, 10, 26, 9, 0, 0)
const actorOf = (name: string): Actor => ({ userId: `user-${name}`, isAdmin: false })
const hana = actorOf('hana')
const taro = actorOf('taro')
const jiro = actorOf('jiro')
const admin: Moderator = { userId: 'user-saki', isAdmin: true, username: 'saki' }
const markdown = createMarkdownRenderer()
afterAll(() => markdown.close())

describe.each(testEngines)('reports and moderation on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  let db: Kysely<DB>
  let limits: { limiter: ReturnType<typeof memoryRateLimiter>; perUserPerHour: number }
  const report = (actor: Actor | undefined, input: object) =>
    fileReport(db, actor, input, { now: NOW, limits })

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    db = database.db
    await insertTestUsers(db, ['hana', 'taro', 'jiro', 'saki'], NOW)
  })
  afterAll(async () => {
    await database.remove()
  })
  beforeEach(async () => {
    limits = { limiter: memoryRateLimiter({ now: () => NOW }), perUserPerHour: 20 }
    for (const table of [
      'reports',
      'moderation_actions',
      'comments',
      'studies',
      'courses',
      'dm_rooms',
      'follows',
      'identity_refresh_tokens',
      'identity_users',
    ] as const) {
      await db.deleteFrom(table).execute()
    }
    await db.updateTable('users').set({ suspended_at: null }).execute()
    // Taro's published study with a comment by Jiro, and a draft of his.
    await db
      .insertInto('studies')
      .values([
        {
          id: 'study-1',
          owner_id: 'user-taro',
          title: '配列の学び',
          summary: '配列について',
          body: 'map と filter の使い方',
          status: 'published',
          published_at: NOW,
          created_at: NOW,
          updated_at: NOW,
        },
        {
          id: 'study-draft',
          owner_id: 'user-taro',
          title: '下書き',
          summary: '',
          body: '',
          status: 'draft',
          created_at: NOW,
          updated_at: NOW,
        },
      ])
      .execute()
    await db
      .insertInto('comments')
      .values({
        id: 'comment-1',
        subject_kind: 'study',
        subject_id: 'study-1',
        parent_id: null,
        author_id: 'user-jiro',
        body: 'ひどいコメント',
        created_at: NOW,
        updated_at: NOW,
      })
      .execute()
  })

  describe('reporting', () => {
    it('files one open report per reporter and item; a second one updates it', async () => {
      const first = await report(hana, { kind: 'study', id: 'study-1', reason: 'spam' })
      expect(first.updated).toBe(false)
      const again = await fileReport(
        db,
        hana,
        { kind: 'study', id: 'study-1', reason: 'copyright', note: '  転載です  ' },
        { now: NOW + 1000, limits },
      )
      expect(again).toEqual({ id: first.id, updated: true })
      const rows = await db.selectFrom('reports').selectAll().execute()
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({
        reporter_id: 'user-hana',
        subject_kind: 'study',
        subject_id: 'study-1',
        subject_user_id: 'user-taro',
        reason: 'copyright',
        note: '転載です',
        status: 'open',
      })
      // Another reporter's report of the same item is its own row.
      await report(jiro, { kind: 'study', id: 'study-1', reason: 'spam' })
      expect(await db.selectFrom('reports').select('id').execute()).toHaveLength(2)
    })

    it('refuses oneself, one’s own content, what the reporter cannot see, and bad input', async () => {
      await refused(report(taro, { kind: 'user', id: 'taro', reason: 'spam' }), 'FORBIDDEN')
      await refused(report(taro, { kind: 'study', id: 'study-1', reason: 'spam' }), 'FORBIDDEN')
      await refused(report(jiro, { kind: 'comment', id: 'comment-1', reason: 'spam' }), 'FORBIDDEN')
      await refused(report(hana, { kind: 'study', id: 'study-draft', reason: 'spam' }), 'NOT_FOUND')
      await refused(report(hana, { kind: 'user', id: 'nobody', reason: 'spam' }), 'NOT_FOUND')
      await refused(
        report(undefined, { kind: 'user', id: 'taro', reason: 'spam' }),
        'SIGN_IN_REQUIRED',
      )
      const reason = await refused(
        report(hana, { kind: 'user', id: 'taro', reason: 'boring' }),
        'VALIDATION_FAILED',
      )
      expect(reason.fields?.reason).toEqual(['理由を選んでください'])
      const note = await refused(
        report(hana, { kind: 'user', id: 'taro', reason: 'other', note: 'あ'.repeat(1001) }),
        'VALIDATION_FAILED',
      )
      expect(note.fields?.note).toEqual(['補足は 1,000 文字以内で入力してください'])
      expect(await db.selectFrom('reports').select('id').execute()).toEqual([])
      // A user is named by username, stored by id.
      await report(hana, { kind: 'user', id: 'Taro', reason: 'harassment' })
      expect(await db.selectFrom('reports').select('subject_id').execute()).toEqual([
        { subject_id: 'user-taro' },
      ])
    })

    it('lets only a member of its room report a message', async () => {
      const { id: roomId } = await openRoom(db, hana, { username: 'taro' }, NOW)
      const message = await sendMessage(
        db,
        taro,
        roomId,
        { body: 'いやなメッセージ' },
        { now: NOW },
      )
      await refused(report(jiro, { kind: 'message', id: message.id, reason: 'spam' }), 'NOT_FOUND')
      await refused(report(taro, { kind: 'message', id: message.id, reason: 'spam' }), 'FORBIDDEN')
      await report(hana, { kind: 'message', id: message.id, reason: 'harassment' })
      expect(await db.selectFrom('reports').select('subject_user_id').execute()).toEqual([
        { subject_user_id: 'user-taro' },
      ])
    })

    it('limits reports per user per hour', async () => {
      limits.perUserPerHour = 2
      await report(hana, { kind: 'user', id: 'taro', reason: 'spam' })
      await report(hana, { kind: 'user', id: 'jiro', reason: 'spam' })
      await refused(report(hana, { kind: 'study', id: 'study-1', reason: 'spam' }), 'RATE_LIMITED')
      // An invalid report is not counted: Jiro's first goes through.
      await refused(report(jiro, { kind: 'user', id: 'jiro', reason: 'spam' }), 'FORBIDDEN')
      await report(jiro, { kind: 'user', id: 'taro', reason: 'spam' })
    })
  })

  describe('the queue and the item page', () => {
    it('groups open reports by item, newest first, and only for admins', async () => {
      await fileReport(
        db,
        hana,
        { kind: 'study', id: 'study-1', reason: 'spam' },
        { now: NOW, limits },
      )
      await fileReport(
        db,
        jiro,
        { kind: 'study', id: 'study-1', reason: 'copyright' },
        { now: NOW + 5, limits },
      )
      await fileReport(
        db,
        hana,
        { kind: 'user', id: 'jiro', reason: 'harassment' },
        { now: NOW + 2, limits },
      )
      const queue = await listReportQueue(db, admin, 'open')
      expect(
        queue.map(({ kind, id, count, reasons, latestAt }) => ({
          kind,
          id,
          count,
          reasons,
          latestAt,
        })),
      ).toEqual([
        {
          kind: 'study',
          id: 'study-1',
          count: 2,
          reasons: ['copyright', 'spam'],
          latestAt: NOW + 5,
        },
        { kind: 'user', id: 'user-jiro', count: 1, reasons: ['harassment'], latestAt: NOW + 2 },
      ])
      expect(queue[0]?.subject).toMatchObject({
        title: '配列の学び',
        path: '/taro/studies/study-1',
      })
      expect(await listReportQueue(db, admin, 'resolved')).toEqual([])
      await refused(listReportQueue(db, { ...hana, username: 'hana' }, 'open'), 'FORBIDDEN')
      await refused(
        readModerationItem(db, { ...hana, username: 'hana' }, 'study', 'study-1'),
        'FORBIDDEN',
      )
      await refused(readModerationItem(db, admin, 'study', 'nothing'), 'NOT_FOUND')
    })

    it('dismisses: the reports are resolved and the action is logged', async () => {
      await report(hana, { kind: 'user', id: 'jiro', reason: 'spam' })
      await dismissReports(db, admin, { kind: 'user', id: 'user-jiro' }, '問題なし', {
        now: NOW + 10,
      })
      expect(await listReportQueue(db, admin, 'open')).toEqual([])
      const item = await readModerationItem(db, admin, 'user', 'user-jiro')
      expect(item.reports).toMatchObject([{ reporter: 'hana', status: 'resolved' }])
      expect(item.actions).toMatchObject([
        { actor: 'saki', action: 'dismiss', note: '問題なし', createdAt: NOW + 10 },
      ])
      expect((await listReportQueue(db, admin, 'resolved')).map((entry) => entry.id)).toEqual([
        'user-jiro',
      ])
    })
  })

  describe('hiding', () => {
    it('hides content from every read path but its author’s, who is told why; unhide restores', async () => {
      await report(hana, { kind: 'study', id: 'study-1', reason: 'copyright' })
      await db
        .insertInto('follows')
        .values({ id: 'f1', follower_id: 'user-hana', followee_id: 'user-taro', created_at: NOW })
        .execute()
      const search = (viewer?: Actor) =>
        searchPublishedContent(db, searchQuery.parse({ q: '配列' }), viewer)
      expect(await search()).toHaveLength(1)
      expect((await listFeed(db, hana, { limit: 10 })).items).toHaveLength(1)

      await setHidden(db, admin, { kind: 'study', id: 'study-1' }, true, '', { now: NOW + 1 })
      const address = { username: 'taro', studyId: 'study-1' }
      await refused(readStudyForViewer(db, address, hana), 'NOT_FOUND')
      await refused(readStudyForViewer(db, address, undefined), 'NOT_FOUND')
      expect(await readStudyForViewer(db, address, taro)).toMatchObject({
        hidden: { at: NOW + 1, reason: '著作権の侵害' },
      })
      expect((await listPublishedStudies(db, { limit: 10 })).items).toEqual([])
      expect((await listPublishedStudies(db, { limit: 10 }, 'taro')).items).toEqual([])
      expect(await search(hana)).toEqual([])
      expect((await listFeed(db, hana, { limit: 10 })).items).toEqual([])
      // Its likes and comments are gone with it, for others.
      await refused(likeSubject(db, hana, { kind: 'study', id: 'study-1' }, NOW), 'NOT_FOUND')
      await refused(
        listComments(db, markdown, hana, { kind: 'study', id: 'study-1' }, {}),
        'NOT_FOUND',
      )
      // The reports are resolved, the action logged.
      const item = await readModerationItem(db, admin, 'study', 'study-1')
      expect(item.reports.map((entry) => entry.status)).toEqual(['resolved'])
      expect(item.actions).toMatchObject([{ action: 'hide', actor: 'saki' }])
      expect(item.subject?.hidden).toEqual({ at: NOW + 1, reason: '著作権の侵害' })

      await setHidden(db, admin, { kind: 'study', id: 'study-1' }, false, '誤りでした', {
        now: NOW + 2,
      })
      expect(await readStudyForViewer(db, address, hana)).toMatchObject({ hidden: null })
      expect(await search()).toHaveLength(1)
      expect(
        (await readModerationItem(db, admin, 'study', 'study-1')).actions.map((a) => a.action),
      ).toEqual(['unhide', 'hide'])
    })

    it('hides a course page (and its lessons) from all but its author', async () => {
      await db
        .insertInto('courses')
        .values({
          id: 'course-1',
          owner_id: 'user-taro',
          title: 'JS 入門',
          summary: '基礎',
          level: 'beginner',
          access: 'free',
          status: 'published',
          published_at: NOW,
          created_at: NOW,
          updated_at: NOW,
        })
        .execute()
      await setHidden(db, admin, { kind: 'course', id: 'course-1' }, true, 'スパムです', {
        now: NOW,
      })
      const address = { username: 'taro', courseId: 'course-1' }
      await refused(readCourseForViewer(db, address, hana), 'NOT_FOUND')
      expect(await readCourseForViewer(db, address, taro)).toMatchObject({
        hidden: { reason: 'スパムです' },
      })
    })

    it('hides a comment from all but its author (and admins)', async () => {
      await setHidden(db, admin, { kind: 'comment', id: 'comment-1' }, true, '', { now: NOW })
      const forHana = await listComments(db, markdown, hana, { kind: 'study', id: 'study-1' }, {})
      expect(forHana.items).toEqual([])
      expect(forHana.total).toBe(0)
      const forJiro = await listComments(db, markdown, jiro, { kind: 'study', id: 'study-1' }, {})
      expect(forJiro.items).toMatchObject([
        { id: 'comment-1', hidden: { reason: '利用規約に反する内容' } },
      ])
      await refused(report(hana, { kind: 'comment', id: 'comment-1', reason: 'spam' }), 'NOT_FOUND')
    })

    it('hides a message: the recipient gets it empty, the sender keeps it with the reason', async () => {
      const { id: roomId } = await openRoom(db, hana, { username: 'taro' }, NOW)
      const message = await sendMessage(
        db,
        taro,
        roomId,
        { body: 'いやなメッセージ' },
        { now: NOW },
      )
      await report(hana, { kind: 'message', id: message.id, reason: 'harassment' })
      expect(await countUnreadMessages(db, 'user-hana')).toBe(1)
      const published: { userIds: string[]; event: MessageEvent }[] = []
      await setHidden(db, admin, { kind: 'message', id: message.id }, true, '', {
        now: NOW + 1,
        publish: (userIds, event) => published.push({ userIds, event }),
      })
      const [forHana] = (await listMessages(db, hana, roomId, {})).items
      expect(forHana).toMatchObject({ id: message.id, body: '', hidden: true, hiddenReason: null })
      const [forTaro] = (await listMessages(db, taro, roomId, {})).items
      expect(forTaro).toMatchObject({
        body: 'いやなメッセージ',
        hidden: true,
        hiddenReason: '嫌がらせ・いじめ',
      })
      // A catch-up from before the hide brings the change; the counts drop it.
      const changes = await listRoomChanges(db, hana, roomId, { after: message.version })
      expect(changes.messages).toMatchObject([{ id: message.id, body: '', hidden: true }])
      expect(await countUnreadMessages(db, 'user-hana')).toBe(0)
      expect((await listRooms(db, hana, {})).items[0]?.lastMessage).toMatchObject({ body: '' })
      // Each member hears their own view.
      expect(
        published.map(({ userIds, event }) => [
          userIds,
          event.type,
          'message' in event.data && event.data.message.body,
        ]),
      ).toEqual(
        [
          [['user-hana'], 'message.updated', ''],
          [['user-taro'], 'message.updated', 'いやなメッセージ'],
        ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      )
      expect(await readModerationItem(db, admin, 'message', message.id)).toMatchObject({
        context: [{ id: message.id, sender: 'taro', body: 'いやなメッセージ' }],
        reports: [{ reporter: 'hana', reason: 'harassment', status: 'resolved' }],
      })
      await refused(
        setHidden(
          db,
          { ...hana, username: 'hana' },
          { kind: 'message', id: message.id },
          false,
          '',
          { now: NOW },
        ),
        'FORBIDDEN',
      )
    })
  })

  describe('suspending', () => {
    beforeEach(async () => {
      await db
        .insertInto('identity_users')
        .values({
          sub: 'user-jiro',
          username: 'jiro',
          email: 'jiro@example.com',
          email_verified: 1,
          status: 'CONFIRMED',
          created_at: NOW,
          updated_at: NOW,
        })
        .execute()
      await db
        .insertInto('identity_refresh_tokens')
        .values(
          ['a', 'b'].map((name) => ({
            token_hash: `hash-${name}`,
            sub: 'user-jiro',
            client_id: 'client',
            origin_jti: `jti-${name}`,
            device_key: null,
            auth_time: NOW,
            expires_at: NOW + 3600_000,
            revoked_at: null,
            created_at: NOW,
          })),
        )
        .execute()
    })

    it('disables the account, ends every session and closes its sockets; unsuspend enables it', async () => {
      const disconnected: string[][] = []
      await setSuspended(db, admin, 'user-jiro', true, '嫌がらせ', {
        now: NOW + 1500,
        disconnect: (userIds) => disconnected.push([...userIds]),
      })
      expect(
        await db
          .selectFrom('identity_users')
          .select(['enabled', 'tokens_valid_after'])
          .executeTakeFirstOrThrow(),
      ).toEqual({
        enabled: 0,
        tokens_valid_after: NOW + 1000,
      })
      expect(await isSessionActive(db, 'jti-a')).toBe(false)
      expect(await isSessionActive(db, 'jti-b')).toBe(false)
      expect(disconnected).toEqual([['user-jiro']])
      expect(
        (await readModerationItem(db, admin, 'user', 'user-jiro')).subject?.owner?.suspendedAt,
      ).toBe(NOW + 1500)

      await setSuspended(db, admin, 'user-jiro', false, '', { now: NOW + 2000 })
      expect(
        await db.selectFrom('identity_users').select('enabled').executeTakeFirstOrThrow(),
      ).toEqual({ enabled: 1 })
      expect(
        (await readModerationItem(db, admin, 'user', 'user-jiro')).actions.map((a) => a.action),
      ).toEqual(['unsuspend', 'suspend'])
    })

    it('refuses non-admins, oneself and unknown users, changing nothing', async () => {
      await refused(
        setSuspended(db, { ...hana, username: 'hana' }, 'user-jiro', true, '', { now: NOW }),
        'FORBIDDEN',
      )
      await refused(setSuspended(db, admin, 'user-saki', true, '', { now: NOW }), 'FORBIDDEN')
      await refused(setSuspended(db, admin, 'user-nobody', true, '', { now: NOW }), 'NOT_FOUND')
      expect(await isSessionActive(db, 'jti-a')).toBe(true)
      expect(await db.selectFrom('moderation_actions').select('id').execute()).toEqual([])
    })
  })
})
