import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callApi, fetchPage } from '#tests/support/http.ts'
import { signedInCookie } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/** Likes, comments and notifications through /api and the pages, on the real server. */

let server: TestServer
let author: string
let reader: string

beforeAll(async () => {
  server = await startTestServer()
  author = await signedInCookie(server, 'mika_author')
  reader = await signedInCookie(server, 'ken_reader')
})
afterAll(async () => {
  await server?.close()
})

const call = (method: string, path: string, cookie?: string, body?: unknown) =>
  callApi(server.url, method, path, cookie, body)

const page = (path: string, cookie?: string) => fetchPage(server.url, path, cookie)

describe('likes, comments and notifications', () => {
  let studyId: string

  it('404s likes and comments on a draft for anyone but its author', async () => {
    const created = await call('POST', '/studies', author, { title: 'Git の基本', notes: '本文' })
    studyId = created.body.id
    expect((await call('PUT', `/likes/study/${studyId}`, reader)).status).toBe(404)
    expect((await call('GET', `/comments/study/${studyId}`)).status).toBe(404)
    const comment = await call('POST', `/comments/study/${studyId}`, reader, { body: 'こんにちは' })
    expect(comment.status).toBe(404)
    expect(comment.body.error.message).toBe('スタディが見つかりません')
    expect((await call('GET', `/likes/study/${studyId}`, author)).body).toEqual({
      count: 0,
      liked: false,
    })
  })

  it('likes once however often, with field errors for a bad kind and 401 for guests', async () => {
    expect(
      (await call('POST', `/studies/${studyId}/publish`, author, { revision: 1 })).status,
    ).toBe(200)
    expect((await call('PUT', `/likes/study/${studyId}`)).status).toBe(401)
    const bad = await call('PUT', `/likes/article/${studyId}`, reader)
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.error.fields)).toEqual(['kind'])
    for (let time = 0; time < 2; time++) {
      expect((await call('PUT', `/likes/study/${studyId}`, reader)).body).toEqual({
        count: 1,
        liked: true,
      })
    }
    expect((await call('GET', `/likes/study/${studyId}`)).body).toEqual({ count: 1, liked: false })
  })

  it('comments with Markdown, refuses over-long ones with a field error, and notifies the author', async () => {
    const tooLong = await call('POST', `/comments/study/${studyId}`, reader, {
      body: 'a'.repeat(5001),
    })
    expect(tooLong.status).toBe(400)
    expect(tooLong.body.error.fields.body).toEqual(['コメントは5,000文字以内で入力してください'])
    const posted = await call('POST', `/comments/study/${studyId}`, reader, {
      body: '`git rebase` の説明が<script>alert(1)</script>わかりやすいです',
    })
    expect(posted.status).toBe(201)
    expect(posted.body.html).toContain('<code>git rebase</code>')
    expect(posted.body.html).not.toContain('<script')
    // Comments are plain Markdown: raw HTML, an image included, stays text.
    const image = await call('POST', `/comments/study/${studyId}`, reader, {
      body: '見て <img src="https://tracker.example/p.gif"> ください',
    })
    expect(image.status).toBe(201)
    expect(image.body.html).not.toContain('<img')
    expect(image.body.html).toContain('&#x3C;img src="https://tracker.example/p.gif">')
    expect((await call('DELETE', `/comments/${image.body.id}`, reader)).status).toBe(204)

    expect((await call('GET', '/notifications/unread-count', author)).body).toEqual({ unread: 2 })
    const notifications = await call('GET', '/notifications?limit=1', author)
    expect(notifications.body.items).toMatchObject([
      { kind: 'comment', actor: { username: 'ken_reader' }, subject: { title: 'Git の基本' } },
    ])
    expect(typeof notifications.body.nextCursor).toBe('string')
    expect((await call('GET', '/notifications', undefined)).status).toBe(401)

    // The study page shows the count and the comment, and stays shareable for guests.
    const guest = await page(`/mika_author/studies/${studyId}`)
    expect(guest.response.headers.get('cache-control')).toContain('public')
    expect(guest.html).toContain('<code>git rebase</code>')
    expect(guest.html).toContain('ログインしていいねする')
    const signedIn = await page('/notifications', author)
    expect(signedIn.status).toBe(200)
    expect(signedIn.html).toContain('通知（未読 2 件）')
    expect(signedIn.html).toContain('ken_reader')

    expect((await call('POST', '/notifications/read', author)).status).toBe(200)
    expect((await call('GET', '/notifications/unread-count', author)).body).toEqual({ unread: 0 })
    expect((await page('/notifications')).response.headers.get('location')).toMatch(
      /^\/auth\/signin/,
    )
  })

  it('lets only the author edit, and removes everything with the study', async () => {
    const [comment] = (await call('GET', `/comments/study/${studyId}`)).body.items
    expect((await call('PUT', `/comments/${comment.id}`, author, { body: '改ざん' })).status).toBe(
      403,
    )
    const edited = await call('PUT', `/comments/${comment.id}`, reader, { body: '追記しました' })
    expect(edited.body).toMatchObject({ body: '追記しました' })
    expect((await call('DELETE', `/studies/${studyId}`, author)).status).toBe(204)
    expect((await call('GET', `/likes/study/${studyId}`)).status).toBe(404)
    expect((await call('DELETE', `/comments/${comment.id}`, reader)).status).toBe(404)
    expect((await call('GET', '/notifications', author)).body.items).toEqual([])
  })
})
