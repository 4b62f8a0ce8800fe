import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callApi, fetchPage } from '#tests/support/http.ts'
import { newSignedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/** Likes, comments and notifications through /api and the pages, on the real server. */

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

const call = (method: string, path: string, cookie?: string, body?: unknown) =>
  callApi(server.url, method, path, cookie, body)

const page = (path: string, cookie?: string) => fetchPage(server.url, path, cookie)

type Person = Awaited<ReturnType<typeof newSignedInUser>>

/** Each test's own author, reader and study, so no test depends on another's likes or comments. */
async function authorReaderAndStudy(options: { published: boolean }) {
  const author = await newSignedInUser(server, 'mika')
  const reader = await newSignedInUser(server, 'ken')
  const created = await call('POST', '/studies', author.cookie, {
    title: 'Git の基本',
    notes: '本文',
  })
  expect(created.status).toBe(201)
  const studyId = created.body.id as string
  if (options.published) await publish(author, studyId)
  return { author, reader, studyId }
}

async function publish(author: Person, studyId: string) {
  expect(
    (await call('POST', `/studies/${studyId}/publish`, author.cookie, { revision: 1 })).status,
  ).toBe(200)
}

describe('likes, comments and notifications', () => {
  it('404s likes and comments on a draft for anyone but its author', async () => {
    const { author, reader, studyId } = await authorReaderAndStudy({ published: false })
    expect((await call('PUT', `/likes/study/${studyId}`, reader.cookie)).status).toBe(404)
    expect((await call('GET', `/comments/study/${studyId}`)).status).toBe(404)
    const comment = await call('POST', `/comments/study/${studyId}`, reader.cookie, {
      body: 'こんにちは',
    })
    expect(comment.status).toBe(404)
    expect(comment.body.error.message).toBe('スタディが見つかりません')
    expect((await call('GET', `/likes/study/${studyId}`, author.cookie)).body).toEqual({
      count: 0,
      liked: false,
    })
  })

  it('likes once however often, with field errors for a bad kind and 401 for guests', async () => {
    const { reader, studyId } = await authorReaderAndStudy({ published: true })
    expect((await call('PUT', `/likes/study/${studyId}`)).status).toBe(401)
    const bad = await call('PUT', `/likes/article/${studyId}`, reader.cookie)
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.error.fields)).toEqual(['kind'])
    for (let time = 0; time < 2; time++) {
      expect((await call('PUT', `/likes/study/${studyId}`, reader.cookie)).body).toEqual({
        count: 1,
        liked: true,
      })
    }
    expect((await call('GET', `/likes/study/${studyId}`)).body).toEqual({ count: 1, liked: false })
  })

  it('comments with Markdown, refuses over-long ones with a field error, and notifies the author', async () => {
    const { author, reader, studyId } = await authorReaderAndStudy({ published: true })
    // A like first: the author is notified of it and of the comment (two unread).
    expect((await call('PUT', `/likes/study/${studyId}`, reader.cookie)).status).toBe(200)
    const tooLong = await call('POST', `/comments/study/${studyId}`, reader.cookie, {
      body: 'a'.repeat(5001),
    })
    expect(tooLong.status).toBe(400)
    expect(tooLong.body.error.fields.body).toEqual(['コメントは5,000文字以内で入力してください'])
    const posted = await call('POST', `/comments/study/${studyId}`, reader.cookie, {
      body: '`git rebase` の説明が<script>alert(1)</script>わかりやすいです',
    })
    expect(posted.status).toBe(201)
    expect(posted.body.html).toContain('<code>git rebase</code>')
    expect(posted.body.html).not.toContain('<script')
    // Comments are plain Markdown: raw HTML, an image included, stays text.
    const image = await call('POST', `/comments/study/${studyId}`, reader.cookie, {
      body: '見て <img src="https://tracker.example/p.gif"> ください',
    })
    expect(image.status).toBe(201)
    expect(image.body.html).not.toContain('<img')
    expect(image.body.html).toContain('&#x3C;img src="https://tracker.example/p.gif">')
    expect((await call('DELETE', `/comments/${image.body.id}`, reader.cookie)).status).toBe(204)

    expect((await call('GET', '/notifications/unread-count', author.cookie)).body).toEqual({
      unread: 2,
    })
    const notifications = await call('GET', '/notifications?limit=1', author.cookie)
    expect(notifications.body.items).toMatchObject([
      { kind: 'comment', actor: { username: reader.username }, subject: { title: 'Git の基本' } },
    ])
    expect(typeof notifications.body.nextCursor).toBe('string')
    expect((await call('GET', '/notifications', undefined)).status).toBe(401)

    // The study page shows the count and the comment, and stays shareable for guests.
    const guest = await page(`/${author.username}/studies/${studyId}`)
    expect(guest.response.headers.get('cache-control')).toContain('public')
    expect(guest.html).toContain('<code>git rebase</code>')
    expect(guest.html).toContain('ログインしていいねする')
    const signedIn = await page('/notifications', author.cookie)
    expect(signedIn.status).toBe(200)
    expect(signedIn.html).toContain('通知（未読 2 件）')
    expect(signedIn.html).toContain(reader.username)

    expect((await call('POST', '/notifications/read', author.cookie)).status).toBe(200)
    expect((await call('GET', '/notifications/unread-count', author.cookie)).body).toEqual({
      unread: 0,
    })
    expect((await page('/notifications')).response.headers.get('location')).toMatch(
      /^\/auth\/signin/,
    )
  })

  it('lets only the author edit, and removes everything with the study', async () => {
    const { author, reader, studyId } = await authorReaderAndStudy({ published: true })
    const posted = await call('POST', `/comments/study/${studyId}`, reader.cookie, {
      body: 'わかりやすいです',
    })
    expect(posted.status).toBe(201)
    expect((await call('GET', '/notifications', author.cookie)).body.items).toHaveLength(1)
    const [comment] = (await call('GET', `/comments/study/${studyId}`)).body.items
    expect(
      (await call('PUT', `/comments/${comment.id}`, author.cookie, { body: '改ざん' })).status,
    ).toBe(403)
    const edited = await call('PUT', `/comments/${comment.id}`, reader.cookie, {
      body: '追記しました',
    })
    expect(edited.body).toMatchObject({ body: '追記しました' })
    expect((await call('DELETE', `/studies/${studyId}`, author.cookie)).status).toBe(204)
    expect((await call('GET', `/likes/study/${studyId}`)).status).toBe(404)
    expect((await call('DELETE', `/comments/${comment.id}`, reader.cookie)).status).toBe(404)
    expect((await call('GET', '/notifications', author.cookie)).body.items).toEqual([])
  })
})
