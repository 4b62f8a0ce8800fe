import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { amplifyCookieHeader } from '#app/lib/auth/test-tokens.ts'
import { callApi } from '#tests/support/http.ts'
import { CLIENT_ID, signedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/** The course API against the real server: ownership, drafts, revisions, field errors. */

let server: TestServer
let author: string
let other: string

beforeAll(async () => {
  server = await startTestServer()
  author = amplifyCookieHeader(CLIENT_ID, 'kana_author', await signedInUser(server, 'kana_author'))
  other = amplifyCookieHeader(CLIENT_ID, 'jiro_other', await signedInUser(server, 'jiro_other'))
})
afterAll(async () => {
  await server?.close()
})

const call = (method: string, path: string, cookie?: string, body?: unknown) =>
  callApi(server.url, method, path, cookie, body)

describe('course API', () => {
  let courseId: string
  let revision: number
  let lessonId: string

  it('refuses a guest and bad input, creating nothing', async () => {
    const guest = await call('POST', '/courses', undefined, { title: 'ゲスト' })
    expect(guest.status).toBe(401)
    expect(guest.body.error.code).toBe('SIGN_IN_REQUIRED')
    const bad = await call('POST', '/courses', author, {
      title: 'あ'.repeat(101),
      level: 3,
      tags: ['a<b'],
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('VALIDATION_FAILED')
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['level', 'tags.0', 'title'])
    expect(bad.body.error.fields.title).toEqual(['タイトルは 100 文字以内で入力してください'])
    const missing = await call('POST', '/courses', author)
    expect(missing.status).toBe(400)
  })

  it('creates a draft that only its author sees', async () => {
    const created = await call('POST', '/courses', author, {
      title: 'API で作るコース',
      summary: 'テスト',
      tags: ['ＡＰＩ'],
    })
    expect(created.status).toBe(201)
    courseId = created.body.id
    revision = created.body.revision
    const path = `/users/kana_author/courses/${courseId}`
    expect((await call('GET', path, author)).body).toMatchObject({
      status: 'draft',
      tags: ['api'],
      canEdit: true,
    })
    for (const cookie of [undefined, other]) {
      const hidden = await call('GET', path, cookie)
      expect(hidden.status).toBe(404)
      expect(hidden.body.error.code).toBe('NOT_FOUND')
      expect((await call('GET', `/courses/${courseId}/draft`, cookie)).status).toBe(
        cookie ? 404 : 401,
      )
      expect(
        (await call('PUT', `/courses/${courseId}`, cookie, { title: 'x', revision })).status,
      ).toBe(cookie ? 404 : 401)
    }
  })

  it('builds sections and lessons, with the revision each change is based on', async () => {
    const section = await call('POST', `/courses/${courseId}/sections`, author, {
      title: '第 1 章',
      revision,
    })
    expect(section.status).toBe(201)
    const lesson = await call('POST', `/courses/${courseId}/lessons`, author, {
      sectionId: section.body.sectionId,
      title: 'はじめてのレッスン',
      revision: section.body.revision,
    })
    expect(lesson.status).toBe(201)
    lessonId = lesson.body.lessonId
    revision = lesson.body.revision
    // Not yet: the lesson has no body, and a reader must never open an empty lesson.
    const empty = await call('POST', `/courses/${courseId}/publish`, author, { revision })
    expect(empty.status).toBe(400)
    expect(empty.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: '中身が空のレッスンがあるため公開できません: レッスン「はじめてのレッスン」',
      fields: {
        [`lessons.${lessonId}.body`]: [
          'レッスン「はじめてのレッスン」の本文が空です。本文を書いてから公開してください',
        ],
      },
    })
    const saved = await call('PUT', `/courses/${courseId}/lessons/${lessonId}`, author, {
      title: 'はじめてのレッスン',
      body: '# こんにちは\n\n```js\nconsole.log(1)\n```',
      access: 'free',
      revision: 1,
    })
    expect(saved).toEqual({ status: 200, body: { revision: 2 } })
  })

  it('refuses a stale revision with 409 and a Japanese message', async () => {
    const stale = await call('PUT', `/courses/${courseId}`, author, {
      title: '古いタブ',
      revision: revision - 1,
    })
    expect(stale.status).toBe(409)
    expect(stale.body.error.code).toBe('STALE_REVISION')
    expect(stale.body.error.message).toContain('先に保存されています')
    const wrongType = await call('PUT', `/courses/${courseId}`, author, {
      title: '型違い',
      revision: 'abc',
    })
    expect(wrongType.status).toBe(400)
    expect(wrongType.body.error.fields.revision).toBeDefined()
    const draft = await call('GET', `/courses/${courseId}/draft`, author)
    expect(draft.body).toMatchObject({ title: 'API で作るコース', revision })
  })

  it('publishes: guests read the course and its lesson; learners mark it done once', async () => {
    const published = await call('POST', `/courses/${courseId}/publish`, author, { revision })
    expect(published.status).toBe(200)
    revision = published.body.revision
    const course = await call('GET', `/users/kana_author/courses/${courseId}`)
    expect(course.status).toBe(200)
    expect(course.body.sections[0].lessons[0]).toMatchObject({ id: lessonId, done: false })
    const lessonPath = `/users/kana_author/courses/${courseId}/lessons/${lessonId}`
    expect((await call('GET', lessonPath)).body.lesson.body).toContain('# こんにちは')

    expect((await call('POST', `${lessonPath}/done`)).status).toBe(401)
    const first = await call('POST', `${lessonPath}/done`, other)
    expect(first.body.newlyDone).toBe(true)
    const again = await call('POST', `${lessonPath}/done`, other)
    expect(again.body).toEqual({ doneAt: first.body.doneAt, newlyDone: false })
    const progress = await call('GET', `/users/kana_author/courses/${courseId}`, other)
    expect(progress.body.progress).toEqual({ done: 1, total: 1 })

    // Undone (a click by mistake): the progress goes, and undoing twice is harmless.
    expect((await call('DELETE', `${lessonPath}/done`)).status).toBe(401)
    expect(await call('DELETE', `${lessonPath}/done`, other)).toEqual({
      status: 200,
      body: { wasDone: true },
    })
    expect((await call('DELETE', `${lessonPath}/done`, other)).body).toEqual({ wasDone: false })
    const undone = await call('GET', `/users/kana_author/courses/${courseId}`, other)
    expect(undone.body.progress).toEqual({ done: 0, total: 1 })
    expect(undone.body.sections[0].lessons[0].done).toBe(false)
  })

  it('refuses someone else every write on a published course, and forged ids', async () => {
    const writes: [string, string, unknown][] = [
      ['PUT', `/courses/${courseId}`, { title: '乗っ取り', revision }],
      ['POST', `/courses/${courseId}/unpublish`, { revision }],
      ['POST', `/courses/${courseId}/sections`, { title: '乗っ取り', revision }],
      [
        'PUT',
        `/courses/${courseId}/lessons/${lessonId}`,
        { title: '乗っ取り', body: '', access: 'free', revision: 2 },
      ],
      ['DELETE', `/courses/${courseId}/lessons/${lessonId}?revision=${revision}`, undefined],
      ['DELETE', `/courses/${courseId}`, undefined],
    ]
    for (const [method, path, body] of writes) {
      expect((await call(method, path, other, body)).status, `${method} ${path}`).toBe(403)
      expect((await call(method, path, undefined, body)).status, `${method} ${path}`).toBe(401)
    }
    const forged = await call('PUT', `/courses/${courseId}/lessons/nolesson00000000`, author, {
      title: 'x',
      body: '',
      access: 'free',
      revision: 1,
    })
    expect(forged.status).toBe(404)
    expect(
      (await call('PUT', '/courses/unknown000000000', author, { title: 'x', revision: 1 })).status,
    ).toBe(404)
    const course = await call('GET', `/courses/${courseId}/draft`, author)
    expect(course.body).toMatchObject({ title: 'API で作るコース', status: 'published', revision })
    expect(course.body.sections[0].lessons[0].title).toBe('はじめてのレッスン')
  })

  it('lets the author unpublish and delete', async () => {
    const unpublished = await call('POST', `/courses/${courseId}/unpublish`, author, { revision })
    expect(unpublished.status).toBe(200)
    expect((await call('GET', `/users/kana_author/courses/${courseId}`)).status).toBe(404)
    expect((await call('DELETE', `/courses/${courseId}`, author)).status).toBe(204)
    expect((await call('GET', `/courses/${courseId}/draft`, author)).status).toBe(404)
  })
})

describe('GET /api/courses filters', () => {
  it('narrows by level and access, and answers a bad filter with a field error', async () => {
    const premium = await call('GET', '/courses?access=premium&limit=50')
    expect(premium.status).toBe(200)
    expect(premium.body.items.length).toBeGreaterThan(0)
    for (const course of premium.body.items) expect(course.access).toBe('premium')
    const beginner = await call('GET', '/courses?level=beginner&access=free&limit=50')
    for (const course of beginner.body.items) {
      expect(course).toMatchObject({ level: 'beginner', access: 'free', tags: expect.any(Array) })
    }
    const none = await call('GET', '/courses?tag=no-such-tag')
    expect(none.body.items).toEqual([])
    const bad = await call('GET', '/courses?level=expert')
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('VALIDATION_FAILED')
  })
})
