import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callApi, fetchPage } from '#tests/support/http.ts'
import { newSignedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/** Studies, /drafts and tag pages against the real server: ownership, revisions, field errors. */

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

/** Each test's own author and someone else, so no test depends on what another left behind. */
async function authorAndOther(): Promise<{ author: Person; other: Person }> {
  return {
    author: await newSignedInUser(server, 'saki'),
    other: await newSignedInUser(server, 'taro'),
  }
}

const NOTES = '# 正規表現\n\n<script>alert(1)</script>`\\d+` は数字'

/** A draft study by `author`: its id and revision. */
async function draftStudy(author: Person, tags = ['ＲｅｇＥｘ']) {
  const created = await call('POST', '/studies', author.cookie, {
    title: '正規表現ノート',
    summary: 'よく使うパターン',
    notes: NOTES,
    tags,
  })
  expect(created.status).toBe(201)
  return { studyId: created.body.id as string, revision: created.body.revision as number }
}

async function publishedStudy(author: Person, tags?: string[]) {
  const { studyId, revision } = await draftStudy(author, tags)
  const published = await call('POST', `/studies/${studyId}/publish`, author.cookie, { revision })
  expect(published.status).toBe(200)
  return { studyId, revision: published.body.revision as number }
}

describe('study API and pages', () => {
  it('refuses a guest and bad input, creating nothing', async () => {
    const { author } = await authorAndOther()
    const guest = await call('POST', '/studies', undefined, { title: 'ゲスト' })
    expect(guest.status).toBe(401)
    const bad = await call('POST', '/studies', author.cookie, {
      title: '',
      notes: 12,
      tags: ['a b c'.repeat(20)],
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('VALIDATION_FAILED')
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['notes', 'tags.0', 'title'])
    expect(bad.body.error.fields.title).toEqual(['タイトルを入力してください'])
    expect((await call('GET', '/drafts', author.cookie)).body.items).toEqual([])
  })

  it('creates a draft only its author sees, listed in their drafts', async () => {
    const { author, other } = await authorAndOther()
    const { studyId } = await draftStudy(author)
    const path = `/users/${author.username}/studies/${studyId}`
    expect((await call('GET', path, author.cookie)).body).toMatchObject({
      status: 'draft',
      tags: ['regex'],
      canEdit: true,
    })
    for (const cookie of [undefined, other.cookie]) {
      expect((await call('GET', path, cookie)).status).toBe(404)
      expect((await page(`/${author.username}/studies/${studyId}`, cookie)).status).toBe(404)
      expect((await call('GET', `/studies/${studyId}/draft`, cookie)).status).toBe(
        cookie ? 404 : 401,
      )
    }
    const drafts = await call('GET', '/drafts', author.cookie)
    expect(drafts.body.items).toEqual([
      expect.objectContaining({
        kind: 'study',
        id: studyId,
        title: '正規表現ノート',
        editPath: `/${author.username}/studies/${studyId}/edit`,
      }),
    ])
    expect((await call('GET', '/drafts', other.cookie)).body.items).toEqual([])
    expect((await call('GET', '/drafts')).status).toBe(401)
  })

  it('refuses every write by someone else, a guest or to a forged id', async () => {
    const { author, other } = await authorAndOther()
    const { studyId, revision } = await draftStudy(author)
    const writes: [string, string, unknown][] = [
      ['PUT', `/studies/${studyId}`, { title: '乗っ取り', revision }],
      ['POST', `/studies/${studyId}/publish`, { revision }],
      ['POST', `/studies/${studyId}/unpublish`, { revision }],
      ['DELETE', `/studies/${studyId}`, undefined],
    ]
    for (const [method, path, body] of writes) {
      expect((await call(method, path, undefined, body)).status).toBe(401)
      expect((await call(method, path, other.cookie, body)).status).toBe(404)
      const forged = path.replace(studyId, 'forgedid00000000')
      expect((await call(method, forged, author.cookie, body)).status).toBe(404)
    }
    expect((await call('GET', `/studies/${studyId}/draft`, author.cookie)).body).toMatchObject({
      title: '正規表現ノート',
      revision,
    })
  })

  it('saves on the current revision and refuses a stale one with 409', async () => {
    const { author } = await authorAndOther()
    const { studyId, revision } = await draftStudy(author)
    const saved = await call('PUT', `/studies/${studyId}`, author.cookie, {
      title: '正規表現ノート',
      summary: 'よく使うパターン',
      notes: NOTES,
      tags: ['regex', 'Java Script'],
      revision,
    })
    expect(saved.status).toBe(200)
    expect(saved.body.revision).toBeGreaterThan(revision)
    const stale = await call('PUT', `/studies/${studyId}`, author.cookie, {
      title: '古い',
      revision,
    })
    expect(stale.status).toBe(409)
    expect(stale.body.error.code).toBe('STALE_REVISION')
  })

  it('publishes: the page renders sanitised notes for guests, lists and the tag page show it', async () => {
    const { author, other } = await authorAndOther()
    const { studyId } = await publishedStudy(author, ['ＲｅｇＥｘ', 'Java Script'])
    const detail = await page(`/${author.username}/studies/${studyId}`)
    expect(detail.status).toBe(200)
    expect(detail.html).toContain('<h1')
    expect(detail.html).toContain('正規表現')
    expect(detail.html).not.toContain('<script>alert(1)')
    expect(detail.html).toContain(`href="/${author.username}/studies/${studyId}/exercises"`)
    expect(detail.html).toContain('href="/tags/java-script"')
    expect((await page('/studies')).html).toContain('正規表現ノート')
    expect((await page(`/${author.username}/studies`)).html).toContain('正規表現ノート')
    expect((await page(`/${other.username}/studies`)).html).not.toContain('正規表現ノート')
    const listed = await call('GET', `/users/${author.username}/studies?limit=1`)
    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([studyId])
    expect((await call('GET', '/studies?cursor=nonsense')).status).toBe(400)
    // Any spelling of the tag finds it: full-width, upper case.
    const tagPage = await page(`/tags/${encodeURIComponent('ＲＥＧＥＸ')}`)
    expect(tagPage.status).toBe(200)
    expect(tagPage.html).toContain('#regex')
    expect(tagPage.html).toContain(`href="/${author.username}/studies/${studyId}"`)
    expect((await page(`/tags/${encodeURIComponent('<x>')}`)).status).toBe(404)
    expect((await call('GET', '/drafts', author.cookie)).body.items).toEqual([])
  })

  it('someone else may not unpublish or delete a published study (403), its author may', async () => {
    const { author, other } = await authorAndOther()
    const { studyId, revision } = await publishedStudy(author)
    expect(
      (await call('POST', `/studies/${studyId}/unpublish`, other.cookie, { revision })).status,
    ).toBe(403)
    expect((await call('DELETE', `/studies/${studyId}`, other.cookie)).status).toBe(403)
    expect((await call('DELETE', `/studies/${studyId}`, author.cookie)).status).toBe(204)
    expect((await call('GET', `/users/${author.username}/studies/${studyId}`)).status).toBe(404)
    const tagPage = await page('/tags/regex')
    expect(tagPage.status).toBe(200)
    expect(tagPage.html).not.toContain(studyId)
  })

  it('/drafts: guests go to sign in; the author publishes and deletes drafts there', async () => {
    const { author, other } = await authorAndOther()
    const guest = await page('/drafts')
    expect(guest.status).toBe(302)
    expect(guest.response.headers.get('location')).toBe('/auth/signin?redirectTo=%2Fdrafts')
    const study = await call('POST', '/studies', author.cookie, { title: '下書きページから公開' })
    const course = await call('POST', '/courses', author.cookie, { title: '下書きのコース' })
    const listed = await page('/drafts', author.cookie)
    expect(listed.status).toBe(200)
    expect(listed.html).toContain('下書きページから公開')
    expect(listed.html).toContain(`href="/${author.username}/courses/${course.body.id}/edit"`)

    const act = (cookie: string, fields: Record<string, string>) =>
      fetch(`${server.url}/drafts`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
        redirect: 'manual',
      })
    // Someone else's draft cannot be published from their own /drafts.
    const forged = await act(other.cookie, {
      intent: 'publish',
      kind: 'study',
      id: study.body.id,
      revision: '1',
    })
    expect(await forged.text()).toContain('スタディが見つかりません')
    await act(author.cookie, { intent: 'publish', kind: 'study', id: study.body.id, revision: '1' })
    expect(
      (await call('GET', `/users/${author.username}/studies/${study.body.id}`)).body.status,
    ).toBe('published')
    // A course needs a lesson first: the refusal is shown, nothing changes.
    const refused = await act(author.cookie, {
      intent: 'publish',
      kind: 'course',
      id: course.body.id,
      revision: '1',
    })
    expect(await refused.text()).toContain('公開するにはレッスンを 1 つ以上追加してください')
    await act(author.cookie, { intent: 'delete', kind: 'course', id: course.body.id })
    expect((await call('GET', '/drafts', author.cookie)).body.items).toEqual([])
  })
})

// PostgreSQL's disk cannot be filled here; SQLite's size limit gives the same SQLITE_FULL.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('a full disk', () => {
  it('answers 507 with a Japanese message and saves nothing, then works again', async () => {
    const { other } = await authorAndOther()
    const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(
      server.database.db,
    )
    await sql.raw(`PRAGMA max_page_count = ${rows[0]?.page_count}`).execute(server.database.db)
    try {
      const full = await call('POST', '/studies', other.cookie, {
        title: '保存できないスタディ',
        notes: 'あ'.repeat(60_000),
      })
      expect(full.status).toBe(507)
      expect(full.body.error).toMatchObject({ code: 'INSUFFICIENT_STORAGE' })
      expect(full.body.error.message).toContain('保存領域が不足')
    } finally {
      await sql.raw('PRAGMA max_page_count = 1073741823').execute(server.database.db)
    }
    expect((await call('GET', '/drafts', other.cookie)).body.items).toEqual([])
    expect((await call('POST', '/studies', other.cookie, { title: '空いた後' })).status).toBe(201)
  })
})
