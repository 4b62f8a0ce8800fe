import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoReadingPaths } from '#tests/support/first-load.ts'
import { nodeGet, rawGet } from '#tests/support/http.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

async function page(path: string, init?: RequestInit) {
  const response = await fetch(`${server.url}${path}`, init)
  return { response, html: await response.text() }
}

describe('server-rendered pages', () => {
  it('renders the home page in Japanese with the site title and demo courses', async () => {
    const { response, html } = await page('/')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/text\/html/)
    expect(html).toContain('<html lang="ja"')
    expect(html).toContain('<title>テックラボ はじめてのプログラミング講座</title>')
    expect(html).toMatch(/<meta name="description" content="[^"]+"/)
    expect(html).toContain('はじめての HTML')
  })

  it('gives every page its own title: "page | site"', async () => {
    const { html } = await page('/courses')
    expect(html).toContain('<title>コース一覧 | テックラボ はじめてのプログラミング講座</title>')
    const terms = await page('/terms')
    expect(terms.html).toContain(
      '<title>利用規約 | テックラボ はじめてのプログラミング講座</title>',
    )
  })

  it('takes the site title from the configuration', async () => {
    const custom = await startTestServer({ SITE_TITLE: 'テスト講座' })
    try {
      const response = await fetch(`${custom.url}/`)
      expect(await response.text()).toContain('<title>テスト講座</title>')
    } finally {
      await custom.close()
    }
  })

  it.each([
    ['/', 'default'],
    ['/auth/signin', 'default-auth'],
    ['/courses', 'general'],
  ])('renders %s in the %s layout', async (path, layout) => {
    const { html } = await page(path)
    const marker = {
      default: 'aria-label="メインメニュー"',
      'default-auth': 'max-w-md',
      general: 'aria-label="サイドメニュー"',
    }[layout]
    expect(html).toContain(marker)
  })

  // Every route of the seed's table, with a parameter filled where one is needed.
  const seedRoutes = [
    '/',
    '/contact',
    '/courses',
    '/example',
    '/exercises',
    '/histories',
    '/labs',
    '/labs_stories',
    '/plans',
    '/privacy',
    '/studies',
    '/terms',
    '/auth/callback_google',
    '/auth/confirm',
    '/auth/forgotPassword',
    '/auth/forgotPasswordVerify',
    '/auth/setupUsername',
    '/auth/signin',
    '/auth/signout',
    '/auth/signup',
    '/techlab',
    '/techlab/followers',
    '/techlab/following',
    '/techlab/labs',
    '/techlab/labs_stories',
    '/techlab/studies',
  ]
  it.each(seedRoutes)('serves %s as a real page: status 200, a title and one h1', async (path) => {
    const { response, html } = await page(path)
    expect(response.status).toBe(200)
    expect(html).toMatch(/<title>[^<]+<\/title>/)
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1)
    // Placeholder copy, not the hint a search box shows in its empty field.
    const copy = html.replace(/\splaceholder="[^"]*"/g, '').replaceAll('placeholder:', '')
    expect(copy).not.toMatch(/lorem|placeholder|TODO/i)
  })

  it.each([
    '/techlab/courses/create',
    '/techlab/courses/edit',
    '/techlab/courses/abc/edit',
    '/techlab/studies/create',
    '/techlab/studies/abc/edit',
    '/techlab/labs/create',
    '/techlab/labs/abc/edit',
    '/techlab/labs_stories/create',
    '/techlab/labs_stories/abc/edit',
    '/techlab/studies/abc/exercises/create',
    '/techlab/studies/abc/exercises/edit',
    '/techlab/studies/abc/exercises/q1/edit',
    '/drafts',
    '/dms',
    '/dms/room1',
  ])('sends a guest at the private page %s to sign in first', async (path) => {
    const { response } = await page(path, { redirect: 'manual' })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(
      `/auth/signin?redirectTo=${encodeURIComponent(path)}`,
    )
  })

  it('serves a seeded course page and 404s for an id that does not exist', async () => {
    const list = await (await fetch(`${server.url}/api/courses?limit=1`)).json()
    const course = list.items[0]
    const { response, html } = await page(`/${course.author.username}/courses/${course.id}`)
    expect(response.status).toBe(200)
    expect(html).toContain(course.title)
    const missing = await page(`/${course.author.username}/courses/doesnotexist`)
    expect(missing.response.status).toBe(404)
  })

  it.each([
    '/a/b/c/d/e',
    '/no-such-user',
    '/techlab/labs/abc',
    '/techlab/labs_stories/abc',
    '/techlab/studies/abc/exercises',
    '/no-such-user/courses/x',
  ])('answers %s with 404 and the seed texts', async (path) => {
    const { response, html } = await page(path)
    expect(response.status).toBe(404)
    expect(html).toContain('This page could not be found')
    expect(html).toContain('Back to the home page')
    expect(html).toContain('href="/"')
    expect(html).toMatch(/<title>404: This page could not be found \| /)
  })

  it('shows a content page error inside the layout: the header and its navigation stay', async () => {
    const list = await (await fetch(`${server.url}/api/courses?limit=1`)).json()
    const { html } = await page(`/${list.items[0].author.username}/courses/doesnotexist`)
    const main = html.slice(html.indexOf('<main'))
    expect(html.indexOf('<header')).toBeLessThan(html.indexOf('<main'))
    expect(main).toContain('ページが見つかりません')
    // The layout's main landmark holds it: not a second one.
    expect(html.match(/<main\b/g)).toHaveLength(1)
  })
})

describe('assets and caching', () => {
  it('serves hashed assets with long-lived immutable caching', async () => {
    const { html } = await page('/')
    const asset = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1]
    expect(asset).toBeDefined()
    const response = await fetch(`${server.url}${asset}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  })

  it('answers /favicon.ico, which clients ask for whatever the page links, with the site icon', async () => {
    const response = await fetch(`${server.url}/favicon.ico`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/)
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600')
    // An icon directory (reserved 0, type 1) holding at least one image.
    const bytes = Buffer.from(await response.arrayBuffer())
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2)]).toEqual([0, 1])
    expect(bytes.readUInt16LE(4)).toBeGreaterThan(0)
  })

  it('sends a rendered page whole, with its length, streamed parts included', async () => {
    // A page is rendered to its end and sent as one body (decision 043): a course page's
    // lazily loaded comments section arrives in the same answer, not in later chunks.
    const demo = await demoReadingPaths(server.url)
    for (const path of [demo.course, '/courses', '/terms']) {
      const answer = await rawGet(`${server.url}${path}`, {
        cookie: 'CognitoIdentityServiceProvider.client.LastAuthUser=hana',
      })
      expect(answer.status, path).toBe(200)
      expect(answer.headers['transfer-encoding'], path).toBeUndefined()
      expect(Number(answer.headers['content-length']), path).toBe(answer.body.byteLength)
      expect(answer.body.toString().trimEnd().endsWith('</html>'), path).toBe(true)
    }
  })

  it('keeps guest pages in the page cache for a few seconds, but never pages for a signed-in visitor', async () => {
    const first = await fetch(`${server.url}/privacy`)
    expect(first.headers.get('cache-control')).toContain('s-maxage=')
    await first.text()
    const second = await fetch(`${server.url}/privacy`)
    expect(second.headers.get('x-page-cache')).toBe('hit')
    await second.text()
    const analytics = await fetch(`${server.url}/privacy?utm_source=newsletter`, {
      headers: { cookie: '_ga=GA1.1.123' },
    })
    expect(analytics.headers.get('x-page-cache')).toBe('hit')
    await analytics.text()
    const signedIn = await fetch(`${server.url}/privacy`, {
      headers: { cookie: '_ga=1; CognitoIdentityServiceProvider.client.LastAuthUser=hana' },
    })
    expect(signedIn.headers.get('x-page-cache')).toBeNull()
    await signedIn.text()
  })

  it('keys the page cache by scheme too: an http page is never replayed over https', async () => {
    const both = await startTestServer({ HTTPS_PORT: '0' })
    try {
      const ca = await readFile(path.join(both.dataDir, 'tls', 'localhost.crt'), 'utf8')
      await (await fetch(`${both.url}/privacy`)).text()
      const again = await fetch(`${both.url}/privacy`)
      expect(again.headers.get('x-page-cache')).toBe('hit')
      await again.text()
      const secure = await nodeGet(`${both.httpsUrl}/privacy`, { ca })
      expect(secure.status).toBe(200)
      expect(secure.headers['x-page-cache']).toBe('miss')
      const secureAgain = await nodeGet(`${both.httpsUrl}/privacy`, { ca })
      expect(secureAgain.headers['x-page-cache']).toBe('hit')
    } finally {
      await both.close()
    }
  })

  it('does not cache 404 pages', async () => {
    await (await fetch(`${server.url}/zz/zz/zz/zz`)).text()
    const again = await fetch(`${server.url}/zz/zz/zz/zz`)
    expect(again.status).toBe(404)
    expect(again.headers.get('x-page-cache')).toBeNull()
    await again.text()
  })
})
