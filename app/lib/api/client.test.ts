import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTemporaryDatabase, type TemporaryDatabase } from '#db/test-support.ts'
import { courseRoutes } from '#features/api/courses.ts'
import { studyRoutes } from '#features/api/editable.ts'
import { insertTestUsers } from '#features/content-test-support.ts'
import { registerApiWithoutServices } from '#tests/support/api-plugin.ts'
import { ApiRequestError, callApi } from './client.ts'
import { courseApi } from './courses.ts'
import { studyApi } from './drafts.ts'
import { pagesOf } from './lists.ts'

/** The typed client against the real /api on a free port (its session reader signs everyone in as the author). */
describe('callApi', () => {
  const app = Fastify()
  let database: TemporaryDatabase
  let baseUrl: string

  beforeAll(async () => {
    database = await openTemporaryDatabase()
    await insertTestUsers(database.db, ['author'], Date.now())
    await registerApiWithoutServices(app, database.db, {
      markdown: {
        render: async (source: string) => `<p>${source}</p>`,
        imageSources: async () => [],
      },
      user: async () => ({ sub: 'user-author', groups: [] }),
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    baseUrl = `${address}/api`
  })
  afterAll(async () => {
    await app.close()
    await database.remove()
  })

  it('fills in path parameters, sends bodies and query strings, and answers typed results', async () => {
    const api = courseApi(baseUrl)
    const created = await api.create({ title: '型のあるコース', tags: ['TypeScript'] })
    let revision = created.revision
    const section = await api.addSection(created.id, { title: '第1章', revision })
    revision = section.revision
    const lesson = await api.addLesson(created.id, {
      sectionId: section.sectionId,
      title: 'はじめに',
      revision,
    })
    revision = lesson.revision
    const draft = await api.draft(created.id)
    expect(draft).toMatchObject({
      title: '型のあるコース',
      tags: ['typescript'],
      level: 'beginner',
      sections: [{ id: section.sectionId, lessons: [{ id: lesson.lessonId, title: 'はじめに' }] }],
    })
    // A delete carries its revision in the query string.
    revision = (await api.deleteLesson(created.id, lesson.lessonId, draft.revision)).revision
    expect((await api.draft(created.id)).sections[0]?.lessons).toEqual([])
    // A 204 resolves with nothing.
    await expect(
      callApi(baseUrl, courseRoutes.remove, { params: { courseId: created.id } }),
    ).resolves.toBeUndefined()
    expect(revision).toBeGreaterThan(created.revision)
  })

  it('throws the API error with its code and field errors', async () => {
    const error = await courseApi(baseUrl)
      .create({ title: '', level: 'beginner' })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ApiRequestError)
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: { title: ['タイトルを入力してください'] },
    })
    const missing = await callApi(baseUrl, courseRoutes.draft, {
      params: { courseId: 'nosuchcourse' },
    }).catch((caught: unknown) => caught)
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' })
  })

  it('pages through a list with its cursor', async () => {
    const studies = studyApi(baseUrl)
    for (const title of ['一つめ', '二つめ', '三つめ']) {
      const { id, revision } = await studies.create({ title })
      await studies.publish(id, revision)
    }
    const first = await callApi(baseUrl, studyRoutes.listByAuthor, {
      params: { username: 'author' },
      query: { limit: 2 },
    })
    expect(first.items.map((study) => study.title)).toEqual(['三つめ', '二つめ'])
    const pages = pagesOf(studyRoutes.listByAuthor, { username: 'author' })
    const rest = await pages(baseUrl, first.nextCursor ?? '', 2)
    expect(rest.items.map((study) => study.title)).toEqual(['一つめ'])
    expect(rest.nextCursor).toBeNull()
  })
})
