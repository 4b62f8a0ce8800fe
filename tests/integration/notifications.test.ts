import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ContentKind } from '#db/schema.ts'
import { contentPath } from '#features/content-kinds.ts'
import { callApi, fetchPage } from '#tests/support/http.ts'
import { signedInCookie } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * /notifications for every kind of item × every kind of notification about an item (like,
 * comment, reply), through the page and /api, on the engine the suite runs on. Each kind's
 * titles are read from its own table: a query naming another kind's table failed as soon as
 * a course or a lab had a notification.
 */

let server: TestServer
let author: string
let reader: string
let replier: string

const call = (method: string, path: string, cookie?: string, body?: unknown) =>
  callApi(server.url, method, path, cookie, body)

const TITLES: Record<ContentKind, string> = {
  course: '通知テストのコース',
  study: '通知テストのスタディ',
  lab: '通知テストのラボ',
  lab_story: '通知テストのストーリー',
}

const items = {} as Record<ContentKind, string>

async function published(path: string, body: object): Promise<string> {
  const created = await call('POST', path, author, body)
  expect(created.status).toBe(201)
  const { id, revision } = created.body
  const done = await call('POST', `${path}/${id}/publish`, author, { revision })
  expect(done.status).toBe(200)
  return id
}

beforeAll(async () => {
  server = await startTestServer()
  author = await signedInCookie(server, 'nori_author')
  reader = await signedInCookie(server, 'yui_reader')
  replier = await signedInCookie(server, 'sora_replier')

  const course = await call('POST', '/courses', author, { title: TITLES.course })
  const section = await call('POST', `/courses/${course.body.id}/sections`, author, {
    title: '第 1 章',
    revision: course.body.revision,
  })
  const lesson = await call('POST', `/courses/${course.body.id}/lessons`, author, {
    sectionId: section.body.sectionId,
    title: 'レッスン',
    revision: section.body.revision,
  })
  await call('PUT', `/courses/${course.body.id}/lessons/${lesson.body.lessonId}`, author, {
    title: 'レッスン',
    body: '本文',
    access: 'free',
    revision: 1,
  })
  const publish = await call('POST', `/courses/${course.body.id}/publish`, author, {
    revision: lesson.body.revision,
  })
  expect(publish.status).toBe(200)
  items.course = course.body.id
  items.study = await published('/studies', { title: TITLES.study, notes: '本文' })
  items.lab = await published('/labs', { title: TITLES.lab })
  items.lab_story = await published('/labs_stories', {
    title: TITLES.lab_story,
    body: '本文',
    labId: items.lab,
  })

  for (const kind of Object.keys(items) as ContentKind[]) {
    const subject = `${kind}/${items[kind]}`
    expect((await call('PUT', `/likes/${subject}`, reader)).status).toBe(200)
    const comment = await call('POST', `/comments/${subject}`, reader, { body: 'コメント' })
    expect(comment.status).toBe(201)
    const reply = await call('POST', `/comments/${subject}`, replier, {
      body: '返信',
      parentId: comment.body.id,
    })
    expect(reply.status).toBe(201)
  }
})
afterAll(async () => {
  await server?.close()
})

type Listed = { kind: string; subject: { kind: string; title: string; path: string } | null }

async function listed(cookie: string): Promise<Listed[]> {
  const answer = await call('GET', '/notifications?limit=50', cookie)
  expect(answer.status).toBe(200)
  return answer.body.items
}

/** The page, with React's text separators taken out so that sentences read whole. */
async function notificationsPage(cookie: string) {
  const page = await fetchPage(server.url, '/notifications', cookie)
  expect(page.status).toBe(200)
  return { html: page.html.replaceAll('<!-- -->', '') }
}

describe('notifications about every kind of item', () => {
  it('lists likes and comments on each of the author’s items, in /api and on the page', async () => {
    const mine = await listed(author)
    for (const kind of Object.keys(items) as ContentKind[]) {
      for (const what of ['like', 'comment']) {
        // Two comments per item: the reader's, and the reply (a comment to the author too).
        const expected = what === 'comment' ? 2 : 1
        const found = mine.filter((item) => item.kind === what && item.subject?.kind === kind)
        expect(found, `${what} on ${kind}`).toHaveLength(expected)
        expect(found[0]?.subject?.title).toBe(TITLES[kind])
      }
    }
    const page = await notificationsPage(author)
    for (const kind of Object.keys(items) as ContentKind[]) {
      expect(page.html).toContain(`「${TITLES[kind]}」にいいねしました`)
      expect(page.html).toContain(`「${TITLES[kind]}」にコメントしました`)
      expect(page.html).toContain(`href="${contentPath(kind, 'nori_author', items[kind])}#comment-`)
    }
  })

  it('lists replies on every kind of item for the one who was answered', async () => {
    const theirs = await listed(reader)
    for (const kind of Object.keys(items) as ContentKind[]) {
      const found = theirs.filter((item) => item.kind === 'reply' && item.subject?.kind === kind)
      expect(found, `reply on ${kind}`).toHaveLength(1)
      expect(found[0]?.subject?.title).toBe(TITLES[kind])
    }
    const page = await notificationsPage(reader)
    for (const kind of Object.keys(items) as ContentKind[]) {
      expect(page.html).toContain(`「${TITLES[kind]}」についたあなたのコメントに返信しました`)
    }
  })
})
