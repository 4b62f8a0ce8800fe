import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { amplifyCookieHeader } from '#app/lib/auth/test-tokens.ts'
import { callApi, fetchPage } from '#tests/support/http.ts'
import { CLIENT_ID, signedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * Profiles, follows, the home feed, /histories and sharing against the real server, read as a
 * crawler or a browser would: plain HTTP, the HTML as the server sent it.
 */
const SITE = 'http://techlab.example'
let server: TestServer
let author: string
let reader: string
let studyPath: string
let coursePath: string
let lessonPath: string

const call = (method: string, path: string, cookie?: string, body?: unknown) =>
  callApi(server.url, method, path, cookie, body)
const page = (path: string, cookie?: string) => fetchPage(server.url, path, cookie)

/** The content of `<meta property|name="key" content="…">`, as a crawler reads it. */
function metaContent(html: string, key: string): string | undefined {
  const tag = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`)
  return tag.exec(html)?.[1]?.replaceAll('&quot;', '"').replaceAll('&amp;', '&')
}

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_BASE_URL: SITE })
  author = amplifyCookieHeader(CLIENT_ID, 'mika_writer', await signedInUser(server, 'mika_writer'))
  reader = amplifyCookieHeader(CLIENT_ID, 'sora_reader', await signedInUser(server, 'sora_reader'))
  const study = await call('POST', '/studies', author, {
    title: '共有される "スタディ" & ノート',
    summary: 'OGP の説明文です',
    notes: '本文',
  })
  const studyPublished = await call('POST', `/studies/${study.body.id}/publish`, author, {
    revision: study.body.revision,
  })
  expect(studyPublished.status).toBe(200)
  studyPath = `/mika_writer/studies/${study.body.id}`
  const course = await call('POST', '/courses', author, {
    title: '共有するコース',
    summary: '概要',
  })
  const section = await call('POST', `/courses/${course.body.id}/sections`, author, {
    title: '第 1 章',
    revision: course.body.revision,
  })
  const lesson = await call('POST', `/courses/${course.body.id}/lessons`, author, {
    sectionId: section.body.sectionId,
    title: '最初のレッスン',
    revision: section.body.revision,
  })
  await call('PUT', `/courses/${course.body.id}/lessons/${lesson.body.lessonId}`, author, {
    title: '最初のレッスン',
    body: '本文',
    access: 'free',
    revision: 1,
  })
  const published = await call('POST', `/courses/${course.body.id}/publish`, author, {
    revision: lesson.body.revision,
  })
  expect(published.status).toBe(200)
  coursePath = `/mika_writer/courses/${course.body.id}`
  lessonPath = `${coursePath}/lessons/${lesson.body.lessonId}`
})
afterAll(async () => {
  await server?.close()
})

describe('sharing', () => {
  it('serves OGP and Twitter card meta and a canonical URL in the HTML itself', async () => {
    const { status, html } = await page(studyPath)
    expect(status).toBe(200)
    const url = `${SITE}${studyPath}`
    expect(metaContent(html, 'og:title')).toBe('共有される "スタディ" & ノート')
    expect(metaContent(html, 'og:description')).toBe('OGP の説明文です')
    expect(metaContent(html, 'og:url')).toBe(url)
    expect(metaContent(html, 'og:image')).toBe(`${SITE}/og-default.png`)
    expect(metaContent(html, 'og:type')).toBe('article')
    expect(metaContent(html, 'twitter:card')).toBe('summary_large_image')
    expect(metaContent(html, 'twitter:image')).toBe(`${SITE}/og-default.png`)
    expect(html).toContain(`<link rel="canonical" href="${url}"/>`)
  })

  it('links to X, Facebook, Hatena Bookmark and LINE with the page address', async () => {
    for (const path of [studyPath, coursePath, lessonPath]) {
      const { html } = await page(path)
      const encoded = encodeURIComponent(`${SITE}${path}`)
      expect(html).toContain(`https://x.com/intent/post?text=`)
      expect(html).toContain(`https://www.facebook.com/sharer/sharer.php?u=${encoded}`)
      expect(html).toContain(`https://b.hatena.ne.jp/add?mode=confirm&amp;url=${encoded}`)
      expect(html).toContain(`https://social-plugins.line.me/lineit/share?url=${encoded}`)
      expect(html).toContain('リンクをコピー')
    }
    expect(metaContent((await page(coursePath)).html, 'og:title')).toBe('共有するコース')
    const lesson = (await page(lessonPath)).html
    expect(metaContent(lesson, 'og:title')).toBe('最初のレッスン - 共有するコース')
    expect(metaContent(lesson, 'og:url')).toBe(`${SITE}${lessonPath}`)
  })

  it('serves the default share image', async () => {
    const response = await fetch(`${server.url}/og-default.png`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(1000)
  })
})

describe('follows', () => {
  it('refuses guests, oneself, unknown users and a second follow, keeping counts right', async () => {
    expect((await call('POST', '/users/mika_writer/follow')).status).toBe(401)
    const self = await call('POST', '/users/sora_reader/follow', reader)
    expect(self.status).toBe(400)
    expect(self.body.error.fields).toEqual({ username: ['自分自身はフォローできません'] })
    expect((await call('POST', '/users/nobody_here/follow', reader)).status).toBe(404)
    expect((await call('POST', '/users/mika_writer/follow', reader)).body).toEqual({
      following: true,
      followers: 1,
      followees: 0,
    })
    const twice = await call('POST', '/users/mika_writer/follow', reader)
    expect(twice.status).toBe(409)
    expect(twice.body.error.message).toBe('すでにフォローしています')
    expect((await call('GET', '/users/mika_writer')).body.counts).toEqual({
      followers: 1,
      followees: 0,
      published: 2,
    })
    expect((await call('GET', '/users/mika_writer/follow', reader)).body.following).toBe(true)
    expect((await call('GET', '/users/mika_writer/follow')).body.following).toBe(false)
  })

  it('lists followers and following on the profile tabs and through /api', async () => {
    const followers = await page('/mika_writer/followers')
    expect(followers.status).toBe(200)
    expect(followers.html).toContain('href="/sora_reader"')
    expect(followers.html).toMatch(/data-count="followers">1</)
    const following = await page('/sora_reader/following')
    expect(following.html).toContain('href="/mika_writer"')
    const listed = await call('GET', '/users/mika_writer/followers?limit=1')
    expect(listed.body).toMatchObject({ items: [{ username: 'sora_reader' }], nextCursor: null })
    expect((await call('GET', '/users/mika_writer/followers?cursor=bad')).status).toBe(400)
  })

  it("shows the followed people's new content on the signed-in home page", async () => {
    const feed = await call('GET', '/feed', reader)
    expect(feed.body.items.map((item: { path: string }) => item.path)).toEqual([
      coursePath,
      studyPath,
    ])
    const home = await page('/', reader)
    expect(home.html).toContain('フォロー中の新着')
    expect(home.html).toContain(`href="${studyPath}"`)
    expect((await call('GET', '/feed')).status).toBe(401)
  })

  it('unfollows once; a second unfollow is a conflict', async () => {
    expect((await call('DELETE', '/users/mika_writer/follow', reader)).body).toMatchObject({
      following: false,
      followers: 0,
    })
    expect((await call('DELETE', '/users/mika_writer/follow', reader)).status).toBe(409)
    // Signed in, so the page is rendered now rather than served from the guests' page cache.
    expect((await page('/mika_writer/followers', reader)).html).toContain(
      'まだフォロワーはいません',
    )
  })
})

describe('profiles and histories', () => {
  it('edits the profile through /api, refusing a zone that does not exist', async () => {
    const bad = await call('PUT', '/profile', author, {
      displayName: 'みか',
      timeZone: 'Asia/Nowhere',
      links: ['ftp://example.com'],
    })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['links.0', 'timeZone'])
    const saved = await call('PUT', '/profile', author, {
      displayName: 'みか',
      bio: 'Web 制作を勉強中',
      links: ['https://example.com/mika'],
      timeZone: 'America/New_York',
    })
    expect(saved.status).toBe(200)
    expect((await call('GET', '/profile', author)).body.timeZone).toBe('America/New_York')
    const profile = await page('/mika_writer')
    expect(profile.html).toContain('Web 制作を勉強中')
    expect(profile.html).toContain('href="https://example.com/mika"')
    expect((await call('GET', '/profile')).status).toBe(401)
  })

  it("shows the learner's history privately, with the published items and streak", async () => {
    const { status, html, response } = await page('/histories', author)
    expect(status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(html).toContain('America/New_York')
    expect(html).toMatch(/data-stat="current">1 日</)
    expect(html).toMatch(/data-stat="published">2 件</)
    expect(html).toContain(`href="${studyPath}"`)
    const summary = await call('GET', '/histories/summary', author)
    expect(summary.body).toMatchObject({
      streaks: { current: 1, longest: 1 },
      timeZone: 'America/New_York',
    })
    expect(summary.body.heatmap).toHaveLength(53)
    const guest = await page('/histories')
    expect(guest.status).toBe(200)
    expect(guest.html).toContain('学習履歴はまだありません')
    expect((await call('GET', '/histories')).status).toBe(401)
  })
})
