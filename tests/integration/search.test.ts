import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { CLIENT_ID, signedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/** Search from the header (/search), from the catalogue (/courses?q=) and at /api/search. */
let server: TestServer
let coursePath: string
let lessonPath: string
let author: string
let premiumCoursePath: string

async function authorApi(cookie: string, method: string, path: string, body: unknown) {
  const response = await fetch(`${server.url}/api${path}`, {
    method,
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status, `${method} ${path}`).toBeLessThan(300)
  return response.json()
}

async function get(path: string) {
  const response = await fetch(`${server.url}${path}`, { redirect: 'manual' })
  return { status: response.status, text: await response.text() }
}

beforeAll(async () => {
  server = await startTestServer()
  author = amplifyCookieHeader(CLIENT_ID, 'mio_search', await signedInUser(server, 'mio_search'))
  const course = await authorApi(author, 'POST', '/courses', {
    title: 'JavaScript 非同期処理入門',
    summary: 'Promise と async/await を学びます',
  })
  const section = await authorApi(author, 'POST', `/courses/${course.id}/sections`, {
    title: '基本',
    revision: course.revision,
  })
  const lesson = await authorApi(author, 'POST', `/courses/${course.id}/lessons`, {
    sectionId: section.sectionId,
    title: 'コールバック',
    revision: section.revision,
  })
  await authorApi(author, 'PUT', `/courses/${course.id}/lessons/${lesson.lessonId}`, {
    title: 'コールバック',
    body: 'setTimeout に関数を渡すと、あとで呼び出されます。<img src=x onerror=alert(1)>',
    access: 'free',
    revision: 1,
  })
  await authorApi(author, 'POST', `/courses/${course.id}/publish`, { revision: lesson.revision })
  coursePath = `/mio_search/courses/${course.id}`
  lessonPath = `${coursePath}/lessons/${lesson.lessonId}`
  // A free course with one premium lesson (the demo's "内包表記").
  const premium = await authorApi(author, 'POST', '/courses', {
    title: 'Python 中級',
    summary: '書き方のこつ',
  })
  const premiumSection = await authorApi(author, 'POST', `/courses/${premium.id}/sections`, {
    title: '応用',
    revision: premium.revision,
  })
  const premiumLesson = await authorApi(author, 'POST', `/courses/${premium.id}/lessons`, {
    sectionId: premiumSection.sectionId,
    title: 'プレミアムの技',
    revision: premiumSection.revision,
  })
  await authorApi(author, 'PUT', `/courses/${premium.id}/lessons/${premiumLesson.lessonId}`, {
    title: 'プレミアムの技',
    body: '## リスト内包表記\n\n```python\ntotal = [with_tax(p) for p in prices]\n```',
    access: 'premium',
    revision: 1,
  })
  await authorApi(author, 'POST', `/courses/${premium.id}/publish`, {
    revision: premiumLesson.revision,
  })
  premiumCoursePath = `/mio_search/courses/${premium.id}`
  // A draft never shows up.
  await authorApi(author, 'POST', '/courses', { title: '非同期処理の下書き' })
})
afterAll(async () => {
  await server?.close()
})

describe('search', () => {
  it('puts a search box in the header of every page', async () => {
    for (const path of ['/', '/courses', '/terms', '/search?q=x', '/no-such-page']) {
      const { text } = await get(path)
      expect(text, path).toMatch(
        /<form[^>]*action="\/search"[^>]*role="search"|<form[^>]*role="search"[^>]*action="\/search"/,
      )
    }
  })

  it('shows ranked results with highlighted snippets on /search', async () => {
    const { status, text } = await get(`/search?q=${encodeURIComponent('非同期処理')}`)
    expect(status).toBe(200)
    expect(text).toContain(`href="${coursePath}"`)
    expect(text).toContain('<mark>非同期処理</mark>')
    expect(text).not.toContain('非同期処理の下書き')
    const inLesson = await get(`/search?q=${encodeURIComponent('関数を')}`)
    expect(inLesson.text).toContain(`href="${lessonPath}"`)
    expect(inLesson.text).toContain('<mark>関数を</mark>')
    // Snippets are the body's text: raw HTML, which the lesson page drops, is not in them.
    expect(inLesson.text).not.toContain('onerror')
    expect(inLesson.text).not.toContain('<img src=x')
  })

  it('says so when nothing matches, and asks for words when the box is empty', async () => {
    expect((await get(`/search?q=${encodeURIComponent('量子コンピュータ')}`)).text).toContain(
      '見つかりませんでした',
    )
    expect((await get('/search')).text).toContain('調べたい言葉を入力してください')
    const tooLong = await get(`/search?q=${'あ'.repeat(101)}`)
    expect(tooLong.status).toBe(400)
    expect(tooLong.text).toContain('100文字以内')
  })

  it('searches courses from the catalogue', async () => {
    const found = await get(`/courses?q=${encodeURIComponent('async')}`)
    expect(found.status).toBe(200)
    expect(found.text).toContain(`href="${coursePath}"`)
    expect(found.text).toContain('<mark>async</mark>')
    expect((await get(`/courses?q=${encodeURIComponent('量子コンピュータ')}`)).text).toContain(
      '一致するコースはありません',
    )
  })

  it('answers /api/search with JSON and field errors for bad input', async () => {
    const response = await fetch(
      `${server.url}/api/search?q=${encodeURIComponent('setTimeout に関数')}`,
    )
    expect(response.status).toBe(200)
    const body = (await response.json()) as { items: { url: string; kind: string }[] }
    expect(body.items.map((item) => [item.kind, item.url])).toEqual([['course', coursePath]])
    for (const q of ['"', '*', 'OR', '-', '%', '_']) {
      const syntax = await fetch(`${server.url}/api/search?q=${encodeURIComponent(q)}`)
      expect(syntax.status, q).toBe(200)
    }
    const missing = await fetch(`${server.url}/api/search`)
    expect(missing.status).toBe(400)
    expect(((await missing.json()) as { error: { fields: object } }).error.fields).toHaveProperty(
      'q',
    )
    const badKind = await fetch(`${server.url}/api/search?q=a&kind=users&limit=999`)
    expect(badKind.status).toBe(400)
    const fields = ((await badKind.json()) as { error: { fields: object } }).error.fields
    expect(Object.keys(fields).sort()).toEqual(['kind', 'limit'])
  })

  it('never shows a guest what a premium lesson says, on any search', async () => {
    for (const q of ['内包表記', 'with_tax', 'in prices']) {
      const encoded = encodeURIComponent(q)
      for (const path of [`/search?q=${encoded}`, `/courses?q=${encoded}`]) {
        const { text } = await get(path)
        expect(text, path).not.toContain(premiumCoursePath)
      }
      // The seed's premium lesson "for 文とリスト内包表記" is found by its title, title only.
      const api = (await (await fetch(`${server.url}/api/search?q=${encoded}`)).json()) as {
        items: { url: string; snippetHtml: string }[]
      }
      expect(api.items.map((item) => item.url)).not.toContain(premiumCoursePath)
      for (const item of api.items) expect(item.snippetHtml, q).not.toContain(`<mark>${q}`)
    }
    // By its title (which the course outline shows everyone) it is found, without a snippet.
    const byTitle = (await (
      await fetch(`${server.url}/api/search?q=${encodeURIComponent('プレミアムの技')}`)
    ).json()) as { items: { url: string; snippetHtml: string }[] }
    expect(byTitle.items).toMatchObject([{ url: premiumCoursePath, snippetHtml: '' }])
  })

  it("shows the premium lesson's author its text, in a page no shared cache keeps", async () => {
    const response = await fetch(`${server.url}/search?q=${encodeURIComponent('内包表記')}`, {
      headers: { cookie: author },
    })
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const text = await response.text()
    expect(text).toContain(premiumCoursePath)
    expect(text).toContain('リスト<mark>内包表記</mark>')
    const api = (await (
      await fetch(`${server.url}/api/search?q=with_tax`, { headers: { cookie: author } })
    ).json()) as { items: { url: string; snippetHtml: string }[] }
    expect(api.items).toMatchObject([{ url: premiumCoursePath }])
    expect(api.items[0]?.snippetHtml).toContain('<mark>with_tax</mark>(p) for p in prices')
  })
})
