import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callApi, fetchPage } from '#tests/support/http.ts'
import { signedInCookie } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * Hidden means hidden everywhere (decision 039): once an admin hides a comment or an item,
 * nothing quotes it to anyone but its author — not the notifications list, not the badge's
 * count, not another learner's history — and showing it again brings those back. Runs on the
 * engine the suite runs on (TEST_DATABASE_URL for PostgreSQL).
 */
let server: TestServer
const ADMIN = 'hid_admin'
const cookies: Record<string, string> = {}
const call = (who: string, method: string, path: string, body?: unknown) =>
  callApi(server.url, method, path, cookies[who], body)

let courseId = ''
let lessonId = ''
let commentId = ''

beforeAll(async () => {
  server = await startTestServer({ ADMIN_USERS: ADMIN })
  for (const name of [ADMIN, 'hid_author', 'hid_reader']) {
    cookies[name] = await signedInCookie(server, name)
  }
  const course = await call('hid_author', 'POST', '/courses', { title: '非表示テストのコース' })
  courseId = course.body.id
  const section = await call('hid_author', 'POST', `/courses/${courseId}/sections`, {
    title: '第 1 章',
    revision: course.body.revision,
  })
  const lesson = await call('hid_author', 'POST', `/courses/${courseId}/lessons`, {
    sectionId: section.body.sectionId,
    title: '非表示テストのレッスン',
    revision: section.body.revision,
  })
  lessonId = lesson.body.lessonId
  await call('hid_author', 'PUT', `/courses/${courseId}/lessons/${lessonId}`, {
    title: '非表示テストのレッスン',
    body: '本文',
    access: 'free',
    revision: 1,
  })
  const published = await call('hid_author', 'POST', `/courses/${courseId}/publish`, {
    revision: lesson.body.revision,
  })
  expect(published.status).toBe(200)
  const comment = await call('hid_reader', 'POST', `/comments/course/${courseId}`, {
    body: 'ひどいコメント',
  })
  expect(comment.status).toBe(201)
  commentId = comment.body.id
  const done = await call(
    'hid_reader',
    'POST',
    `/users/hid_author/courses/${courseId}/lessons/${lessonId}/done`,
  )
  expect(done.status).toBe(200)
}, 60_000)

afterAll(async () => {
  await server?.close()
})

async function commentNotices(who: string) {
  const list = await call(who, 'GET', '/notifications?limit=50')
  expect(list.status).toBe(200)
  return (list.body.items as { kind: string; commentId: string | null }[]).filter(
    (item) => item.commentId === commentId,
  )
}

async function unread(who: string): Promise<number> {
  const answer = await call(who, 'GET', '/notifications/unread-count')
  expect(answer.status).toBe(200)
  return answer.body.unread
}

const act = (kind: string, id: string, action: 'hide' | 'unhide') =>
  call(ADMIN, 'POST', `/admin/reports/${kind}/${id}/actions`, { action, note: 'テストのため' })

describe('hidden content is quoted nowhere', () => {
  it('a hidden comment leaves its notification, in /api, the badge and the page; unhiding brings it back', async () => {
    expect(await commentNotices('hid_author')).toHaveLength(1)
    const before = await unread('hid_author')
    expect((await act('comment', commentId, 'hide')).status).toBe(204)

    expect(await commentNotices('hid_author')).toEqual([])
    expect(await unread('hid_author')).toBe(before - 1)
    const page = await fetchPage(server.url, '/notifications', cookies.hid_author)
    expect(page.status).toBe(200)
    expect(page.html.replaceAll('<!-- -->', '')).not.toContain('にコメントしました')

    expect((await act('comment', commentId, 'unhide')).status).toBe(204)
    expect(await commentNotices('hid_author')).toHaveLength(1)
    expect(await unread('hid_author')).toBe(before)
  })

  it('a hidden item leaves another learner’s history, and stays in its author’s', async () => {
    const lessonEntry = async () => {
      const history = await call('hid_reader', 'GET', '/histories?limit=50')
      expect(history.status).toBe(200)
      return (history.body.items as { subjectKind: string; subject: unknown }[]).find(
        (entry) => entry.subjectKind === 'lesson',
      )
    }
    expect(await lessonEntry()).toMatchObject({
      subject: { title: '非表示テストのレッスン', courseTitle: '非表示テストのコース' },
    })
    expect((await act('course', courseId, 'hide')).status).toBe(204)
    expect(await lessonEntry()).toMatchObject({ subject: null })
    const page = await fetchPage(server.url, '/histories', cookies.hid_reader)
    expect(page.status).toBe(200)
    expect(page.html).not.toContain('非表示テストの')
    const own = await call('hid_author', 'GET', '/histories?limit=50')
    expect(JSON.stringify(own.body.items)).toContain('非表示テストのコース')
    expect((await act('course', courseId, 'unhide')).status).toBe(204)
    expect(await lessonEntry()).toMatchObject({ subject: { title: '非表示テストのレッスン' } })
  })
})
