import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { CLIENT_ID, signedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * Course and lesson pages against the real server: drafts are 404 to others, signed-in pages
 * are private, premium lessons are locked with a way to /plans, "mark as done" is recorded.
 */
let server: TestServer
let author: string
let learner: string
let coursePath: string
let freeLesson: string
let premiumLesson: string

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}/api${path}`, {
    method,
    headers: { cookie: author, 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  })
  expect(response.status, `${method} ${path}`).toBeLessThan(300)
  return response.json()
}

async function page(path: string, cookie?: string, init: RequestInit = {}) {
  const response = await fetch(`${server.url}${path}`, {
    redirect: 'manual',
    ...init,
    headers: { ...(cookie && { cookie }), ...init.headers },
  })
  return { response, html: await response.text() }
}

beforeAll(async () => {
  server = await startTestServer()
  author = amplifyCookieHeader(CLIENT_ID, 'yui_author', await signedInUser(server, 'yui_author'))
  learner = amplifyCookieHeader(CLIENT_ID, 'ken_learner', await signedInUser(server, 'ken_learner'))
  const course = await api('POST', '/courses', { title: 'ページで読むコース', summary: '概要です' })
  const section = await api('POST', `/courses/${course.id}/sections`, {
    title: '第 1 章',
    revision: course.revision,
  })
  const free = await api('POST', `/courses/${course.id}/lessons`, {
    sectionId: section.sectionId,
    title: '無料のレッスン',
    revision: section.revision,
  })
  const premium = await api('POST', `/courses/${course.id}/lessons`, {
    sectionId: section.sectionId,
    title: '有料のレッスン',
    revision: free.revision,
  })
  freeLesson = free.lessonId
  premiumLesson = premium.lessonId
  await api('PUT', `/courses/${course.id}/lessons/${freeLesson}`, {
    title: '無料のレッスン',
    body: '## はじめに\n\n<script>alert(1)</script>\n\n```python\nprint("こんにちは")\n```',
    access: 'free',
    revision: 1,
  })
  await api('PUT', `/courses/${course.id}/lessons/${premiumLesson}`, {
    title: '有料のレッスン',
    body: '有料の本文ひみつ',
    access: 'premium',
    revision: 1,
  })
  coursePath = `/yui_author/courses/${course.id}`
  await api('POST', `/courses/${course.id}/publish`, { revision: premium.revision })
})
afterAll(async () => {
  await server?.close()
})

describe('course pages', () => {
  it('shows a published course to guests, shareably cached, with its lessons and start button', async () => {
    const { response, html } = await page(coursePath)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toContain('public')
    expect(html).toContain('ページで読むコース')
    expect(html).toContain('無料のレッスン')
    expect(html).toContain('学習を始める')
    expect(html).toMatch(/<svg[^>]*lucide-lock[\s\S]*?<\/svg>プレミアム/)
  })

  it('renders a lesson’s Markdown, sanitised, and locks the premium one with a link to /plans', async () => {
    const free = await page(`${coursePath}/lessons/${freeLesson}`)
    expect(free.response.status).toBe(200)
    expect(free.html).toContain('はじめに</h2>')
    expect(free.html).not.toContain('<script>alert(1)</script>')
    expect(free.html).toContain('こんにちは')
    const locked = await page(`${coursePath}/lessons/${premiumLesson}`, learner)
    expect(locked.response.status).toBe(200)
    expect(locked.html).toContain('プレミアムプランで受講できます')
    expect(locked.html).toContain(
      `href="/plans?next=${encodeURIComponent(`${coursePath}/lessons/${premiumLesson}`)}"`,
    )
    expect(locked.html).not.toContain('有料の本文ひみつ')
    const own = await page(`${coursePath}/lessons/${premiumLesson}`, author)
    expect(own.html).toContain('有料の本文ひみつ')
    expect(own.response.headers.get('cache-control')).toBe('private, no-store')
  })

  it('marks a lesson done from the page and shows the learner’s progress', async () => {
    const lessonPath = `${coursePath}/lessons/${freeLesson}`
    const marked = await page(lessonPath, learner, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    })
    expect(marked.response.status).toBe(200)
    const { html } = await page(coursePath, learner)
    expect(html).toContain('進捗 <!-- -->1<!-- --> / <!-- -->2')
    expect(html).toContain('続きから学習する')
    expect((await page(lessonPath, learner)).html).toContain('完了を取り消す')

    // Undone from the same page: the progress goes back, and the button offers marking again.
    const undone = await page(lessonPath, learner, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'intent=undo',
    })
    expect(undone.response.status).toBe(200)
    expect((await page(coursePath, learner)).html).toContain('進捗 <!-- -->0<!-- --> / <!-- -->2')
    const lessonHtml = (await page(lessonPath, learner)).html
    expect(lessonHtml).toContain('完了にする')
    expect(lessonHtml).not.toContain('完了を取り消す')
    // A guest cannot mark anything: sent to sign in.
    const guest = await page(lessonPath, undefined, { method: 'POST', body: '' })
    expect(guest.response.status).toBe(302)
  })

  it('hides a draft from guests and other users (404) and shows it to its author', async () => {
    const draft = await api('POST', '/courses', { title: '書きかけのコース' })
    const section = await api('POST', `/courses/${draft.id}/sections`, {
      title: '第 1 章',
      revision: draft.revision,
    })
    const lesson = await api('POST', `/courses/${draft.id}/lessons`, {
      sectionId: section.sectionId,
      title: '書きかけのレッスン',
      revision: section.revision,
    })
    const draftPath = `/yui_author/courses/${draft.id}`
    expect((await page(draftPath)).response.status).toBe(404)
    expect((await page(draftPath, learner)).response.status).toBe(404)
    expect((await page(`${draftPath}/lessons/${lesson.lessonId}`)).response.status).toBe(404)
    expect((await page(`${draftPath}/edit`, learner)).response.status).toBe(404)
    const own = await page(draftPath, author)
    expect(own.response.status).toBe(200)
    expect(own.response.headers.get('cache-control')).toBe('private, no-store')
    expect(own.html).toContain('下書き')
    expect(own.html).toContain('編集する')
    const editor = await page(`${draftPath}/edit`, author)
    expect(editor.response.status).toBe(200)
    expect(editor.html).toContain('value="書きかけのコース"')
  })
})
