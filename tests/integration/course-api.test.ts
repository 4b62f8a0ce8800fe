import { brotliDecompressSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callApi, rawGet } from '#tests/support/http.ts'
import { newSignedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/** The course API against the real server: ownership, drafts, revisions, field errors. */

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

const call = (method: string, path: string, cookie?: string, body?: unknown) =>
  callApi(server.url, method, path, cookie, body)

type Person = Awaited<ReturnType<typeof newSignedInUser>>

/** Each test's own author and someone else, so no test depends on what another left behind. */
async function authorAndOther(): Promise<{ author: Person; other: Person }> {
  return {
    author: await newSignedInUser(server, 'kana'),
    other: await newSignedInUser(server, 'jiro'),
  }
}

async function draftCourse(author: Person) {
  const created = await call('POST', '/courses', author.cookie, {
    title: 'API で作るコース',
    summary: 'テスト',
    tags: ['ＡＰＩ'],
  })
  expect(created.status).toBe(201)
  return { courseId: created.body.id as string, revision: created.body.revision as number }
}

/** A draft course with one section and one saved lesson (the lesson at revision 2). */
async function courseWithLesson(author: Person) {
  const { courseId, revision } = await draftCourse(author)
  const section = await call('POST', `/courses/${courseId}/sections`, author.cookie, {
    title: '第 1 章',
    revision,
  })
  expect(section.status).toBe(201)
  const lesson = await call('POST', `/courses/${courseId}/lessons`, author.cookie, {
    sectionId: section.body.sectionId,
    title: 'はじめてのレッスン',
    revision: section.body.revision,
  })
  expect(lesson.status).toBe(201)
  const lessonId = lesson.body.lessonId as string
  const saved = await call('PUT', `/courses/${courseId}/lessons/${lessonId}`, author.cookie, {
    title: 'はじめてのレッスン',
    body: '# こんにちは\n\n```js\nconsole.log(1)\n```',
    access: 'free',
    revision: 1,
  })
  return { courseId, lessonId, revision: lesson.body.revision as number, saved }
}

async function publishedCourse(author: Person) {
  const { courseId, lessonId, revision } = await courseWithLesson(author)
  const published = await call('POST', `/courses/${courseId}/publish`, author.cookie, { revision })
  expect(published.status).toBe(200)
  return { courseId, lessonId, revision: published.body.revision as number }
}

describe('course API', () => {
  it('refuses a guest and bad input, creating nothing', async () => {
    const { author } = await authorAndOther()
    const guest = await call('POST', '/courses', undefined, { title: 'ゲスト' })
    expect(guest.status).toBe(401)
    expect(guest.body.error.code).toBe('SIGN_IN_REQUIRED')
    const bad = await call('POST', '/courses', author.cookie, {
      title: 'あ'.repeat(101),
      level: 3,
      tags: ['a<b'],
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('VALIDATION_FAILED')
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['level', 'tags.0', 'title'])
    expect(bad.body.error.fields.title).toEqual(['タイトルは 100 文字以内で入力してください'])
    const missing = await call('POST', '/courses', author.cookie)
    expect(missing.status).toBe(400)
    expect((await call('GET', '/drafts', author.cookie)).body.items).toEqual([])
  })

  it('creates a draft that only its author sees', async () => {
    const { author, other } = await authorAndOther()
    const { courseId, revision } = await draftCourse(author)
    const path = `/users/${author.username}/courses/${courseId}`
    expect((await call('GET', path, author.cookie)).body).toMatchObject({
      status: 'draft',
      tags: ['api'],
      canEdit: true,
    })
    for (const cookie of [undefined, other.cookie]) {
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
    const { author } = await authorAndOther()
    const { courseId, lessonId, revision, saved } = await courseWithLesson(author)
    expect({ status: saved.status, body: saved.body }).toEqual({
      status: 200,
      body: { revision: 2 },
    })
    const draft = await call('GET', `/courses/${courseId}/draft`, author.cookie)
    expect(draft.body).toMatchObject({ revision })
    expect(draft.body.sections[0]).toMatchObject({ title: '第 1 章' })
    expect(draft.body.sections[0].lessons[0]).toMatchObject({
      id: lessonId,
      title: 'はじめてのレッスン',
    })
  })

  it('refuses to publish a course whose lesson has no body, naming the lesson', async () => {
    const { author } = await authorAndOther()
    const { courseId, revision } = await draftCourse(author)
    const section = await call('POST', `/courses/${courseId}/sections`, author.cookie, {
      title: '第 1 章',
      revision,
    })
    const lesson = await call('POST', `/courses/${courseId}/lessons`, author.cookie, {
      sectionId: section.body.sectionId,
      title: 'はじめてのレッスン',
      revision: section.body.revision,
    })
    const lessonId = lesson.body.lessonId as string
    // A reader must never open an empty lesson.
    const empty = await call('POST', `/courses/${courseId}/publish`, author.cookie, {
      revision: lesson.body.revision,
    })
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
  })

  it('refuses a stale revision with 409 and a Japanese message', async () => {
    const { author } = await authorAndOther()
    const { courseId, revision } = await courseWithLesson(author)
    const stale = await call('PUT', `/courses/${courseId}`, author.cookie, {
      title: '古いタブ',
      revision: revision - 1,
    })
    expect(stale.status).toBe(409)
    expect(stale.body.error.code).toBe('STALE_REVISION')
    expect(stale.body.error.message).toContain('先に保存されています')
    const wrongType = await call('PUT', `/courses/${courseId}`, author.cookie, {
      title: '型違い',
      revision: 'abc',
    })
    expect(wrongType.status).toBe(400)
    expect(wrongType.body.error.fields.revision).toBeDefined()
    const draft = await call('GET', `/courses/${courseId}/draft`, author.cookie)
    expect(draft.body).toMatchObject({ title: 'API で作るコース', revision })
  })

  it('publishes: guests read the course and its lesson; learners mark it done once', async () => {
    const { author, other } = await authorAndOther()
    const { courseId, lessonId } = await publishedCourse(author)
    const course = await call('GET', `/users/${author.username}/courses/${courseId}`)
    expect(course.status).toBe(200)
    expect(course.body.sections[0].lessons[0]).toMatchObject({ id: lessonId, done: false })
    const lessonPath = `/users/${author.username}/courses/${courseId}/lessons/${lessonId}`
    expect((await call('GET', lessonPath)).body.lesson.body).toContain('# こんにちは')

    expect((await call('POST', `${lessonPath}/done`)).status).toBe(401)
    const first = await call('POST', `${lessonPath}/done`, other.cookie)
    expect(first.body.newlyDone).toBe(true)
    const again = await call('POST', `${lessonPath}/done`, other.cookie)
    expect(again.body).toEqual({ doneAt: first.body.doneAt, newlyDone: false })
    const progress = await call(
      'GET',
      `/users/${author.username}/courses/${courseId}`,
      other.cookie,
    )
    expect(progress.body.progress).toEqual({ done: 1, total: 1 })

    // Undone (a click by mistake): the progress goes, and undoing twice is harmless.
    expect((await call('DELETE', `${lessonPath}/done`)).status).toBe(401)
    const undoneOnce = await call('DELETE', `${lessonPath}/done`, other.cookie)
    expect({ status: undoneOnce.status, body: undoneOnce.body }).toEqual({
      status: 200,
      body: { wasDone: true },
    })
    expect((await call('DELETE', `${lessonPath}/done`, other.cookie)).body).toEqual({
      wasDone: false,
    })
    const undone = await call('GET', `/users/${author.username}/courses/${courseId}`, other.cookie)
    expect(undone.body.progress).toEqual({ done: 0, total: 1 })
    expect(undone.body.sections[0].lessons[0].done).toBe(false)
  })

  it('refuses someone else every write on a published course, and forged ids', async () => {
    const { author, other } = await authorAndOther()
    const { courseId, lessonId, revision } = await publishedCourse(author)
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
      expect((await call(method, path, other.cookie, body)).status, `${method} ${path}`).toBe(403)
      expect((await call(method, path, undefined, body)).status, `${method} ${path}`).toBe(401)
    }
    const forged = await call(
      'PUT',
      `/courses/${courseId}/lessons/nolesson00000000`,
      author.cookie,
      {
        title: 'x',
        body: '',
        access: 'free',
        revision: 1,
      },
    )
    expect(forged.status).toBe(404)
    expect(
      (await call('PUT', '/courses/unknown000000000', author.cookie, { title: 'x', revision: 1 }))
        .status,
    ).toBe(404)
    const course = await call('GET', `/courses/${courseId}/draft`, author.cookie)
    expect(course.body).toMatchObject({ title: 'API で作るコース', status: 'published', revision })
    expect(course.body.sections[0].lessons[0].title).toBe('はじめてのレッスン')
  })

  it('lets the author unpublish and delete', async () => {
    const { author } = await authorAndOther()
    const { courseId, revision } = await publishedCourse(author)
    const unpublished = await call('POST', `/courses/${courseId}/unpublish`, author.cookie, {
      revision,
    })
    expect(unpublished.status).toBe(200)
    expect((await call('GET', `/users/${author.username}/courses/${courseId}`)).status).toBe(404)
    expect((await call('DELETE', `/courses/${courseId}`, author.cookie)).status).toBe(204)
    expect((await call('GET', `/courses/${courseId}/draft`, author.cookie)).status).toBe(404)
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

describe('guests’ answers of public reads', () => {
  it('are kept a few seconds and shared by guests, never for someone signed in', async () => {
    const guest = (path: string) => rawGet(`${server.url}/api${path}`)
    const first = await guest('/courses?limit=3')
    expect(first.status).toBe(200)
    expect(first.headers['cache-control']).toBe('public, max-age=0, s-maxage=5')
    const second = await guest('/courses?limit=3')
    expect(second.headers['x-page-cache']).toBe('hit')
    expect(second.body.equals(first.body)).toBe(true)
    expect(JSON.parse(second.body.toString()).items).toHaveLength(3)
    // Another query is another answer; a compressed one says so and decodes to the same JSON.
    const other = await guest('/courses?limit=4')
    expect(other.headers['x-page-cache']).toBe('miss')
    const brotli = await rawGet(`${server.url}/api/courses?limit=4`, { 'accept-encoding': 'br' })
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(brotli.body).equals(other.body)).toBe(true)
    // A bad query is refused, not kept.
    expect((await guest('/search?q=')).status).toBe(400)
    expect((await guest('/search?q=')).headers['x-page-cache']).toBeUndefined()

    const { author } = await authorAndOther()
    const signedIn = await rawGet(`${server.url}/api/courses?limit=3`, { cookie: author.cookie })
    expect(signedIn.headers['x-page-cache']).toBeUndefined()
    expect(signedIn.headers['cache-control']).toBe('private, no-store')
  })
})
