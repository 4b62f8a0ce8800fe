import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CourseCard } from '#features/courses/course-card.ts'
import type { CourseView } from '#features/courses/course-view.server.ts'
import { recordHistoryEvent } from '#features/history/history-events.server.ts'
import type { Page } from '#features/pagination.ts'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { CLIENT_ID, signedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/** The home page: the pitch and newest content for guests, continue-learning cards signed in. */
let server: TestServer
let learner: string

async function page(path: string, cookie?: string) {
  const response = await fetch(`${server.url}${path}`, {
    redirect: 'manual',
    headers: cookie ? { cookie } : {},
  })
  return { response, html: await response.text() }
}

beforeAll(async () => {
  server = await startTestServer()
  learner = amplifyCookieHeader(CLIENT_ID, 'riku_home', await signedInUser(server, 'riku_home'))
  const now = Date.now()
  const author = await server.database.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'riku_home')
    .executeTakeFirstOrThrow()
  await server.database.db
    .insertInto('lab_stories')
    .values({
      id: 'homestory1',
      owner_id: author.id,
      title: 'ポートフォリオサイトを公開した話',
      status: 'published',
      published_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute()
})
afterAll(async () => {
  await server?.close()
})

describe('home page', () => {
  it('shows guests the pitch, the free-plan call, courses and the newest stories, shareably cached', async () => {
    const { response, html } = await page('/')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toContain('public')
    expect(html).toMatch(/<a[^>]*href="\/auth\/signup"[^>]*>無料で始める<\/a>/)
    expect(html).toContain('新着コース')
    expect(html).toContain('href="/riku_home/labs_stories/homestory1"')
    expect(html).toContain('ポートフォリオサイトを公開した話')
    // The newest demo study, from the seed.
    expect(html).toContain('学習記録のつけ方：毎日 3 行でいい')
    expect(html).not.toContain('公開中のスタディはまだありません。')
    expect(html).not.toContain('学習を続ける')
  })

  it('asks a signed-in learner with no progress to pick a course, privately', async () => {
    const { response, html } = await page('/', learner)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(html).toContain('学習を続ける')
    expect(html).toContain('まだ学習中のコースはありません')
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1)
  })

  it('opens a signed-in learner’s home with their week: streak, this week’s row and today’s goal', async () => {
    const before = await page('/', learner)
    expect(before.html).toContain('今週の学習')
    expect(before.html).toContain('data-streak="0"')
    expect(before.html).toContain('data-goal="open"')
    expect(before.html).toContain('あと 1 つ学ぼう')

    const { id: userId } = await server.database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'riku_home')
      .executeTakeFirstOrThrow()
    const now = Date.now()
    for (const at of [now, now - 24 * 3600 * 1000]) {
      await recordHistoryEvent(server.database.db, {
        userId,
        kind: 'published',
        subjectKind: 'lab_story',
        subjectId: 'homestory1',
        at,
      })
    }
    const { response, html } = await page('/', learner)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(html).toContain('data-streak="2"')
    expect(html).toContain('data-goal="met"')
    expect(html).toContain('達成しました！')
    const days = [...html.matchAll(/data-week-day="(\d{4}-\d{2}-\d{2})"/g)].map((m) => m[1])
    expect(days).toHaveLength(7)
    expect(new Date(`${days[0]}T00:00:00Z`).getUTCDay()).toBe(0)
    expect(html).toMatch(/aria-current="date"[^>]*data-week-day=/)
    // The week comes first, before where to continue.
    expect(html.indexOf('今週の学習')).toBeLessThan(html.indexOf('学習を続ける'))
    // A guest's home is the shared page, without anyone's week.
    expect((await page('/')).html).not.toContain('今週の学習')
    await server.database.db.deleteFrom('history_events').where('user_id', '=', userId).execute()
  })

  it('shows a learner with progress a card per started course leading to the next lesson', async () => {
    const catalogue = (await (
      await fetch(`${server.url}/api/courses?limit=1`)
    ).json()) as Page<CourseCard>
    const card = catalogue.items[0]
    if (!card) throw new Error('the demo content has no course')
    const coursePath = `/users/${card.author.username}/courses/${card.id}`
    const course = (await (await fetch(`${server.url}/api${coursePath}`)).json()) as CourseView
    const lessons = course.sections.flatMap((section) => section.lessons)
    const [first, second] = lessons
    if (!first || !second) throw new Error('the demo course has fewer than two lessons')
    const done = await fetch(`${server.url}/api${coursePath}/lessons/${first.id}/done`, {
      method: 'POST',
      headers: { cookie: learner },
    })
    expect(done.status).toBe(200)

    const { html } = await page('/', learner)
    expect(html).toContain(`href="/${card.author.username}/courses/${card.id}"`)
    expect(html).toContain(`1 / ${lessons.length} レッスン完了`)
    expect(html).toContain(
      `href="/${card.author.username}/courses/${card.id}/lessons/${second.id}"`,
    )
    expect(html).toContain(`続きから: ${second.title}`)
    expect(html).not.toContain('まだ学習中のコースはありません')
  })
})
