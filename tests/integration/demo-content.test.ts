import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoCourses } from '#db/seed/demo-content.ts'
import { demoLessons } from '#db/seed/demo-lessons.ts'
import { demoStudies } from '#db/seed/demo-social.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/** What a newcomer sees of the demo content on a fresh install, through the pages. */
let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

async function html(path: string) {
  const response = await fetch(`${server.url}${path}`)
  expect(response.status, path).toBe(200)
  return response.text()
}

/** The address of a demo item by its title. */
async function addressOf(table: 'courses' | 'studies', title: string) {
  const row = await server.database.db
    .selectFrom(table)
    .innerJoin('users', 'users.id', `${table}.owner_id`)
    .select([`${table}.id as id`, 'users.username'])
    .where(`${table}.title`, '=', title)
    .executeTakeFirstOrThrow()
  return `/${row.username}/${table}/${row.id}`
}

describe('demo content on a fresh install', () => {
  it('lists the demo studies on /studies, and a study shows its notes', async () => {
    const list = await html('/studies')
    expect(list).not.toContain('No results')
    for (const study of demoStudies) expect(list).toContain(study.title)
    const study = demoStudies[0]
    const page = await html(await addressOf('studies', study?.title ?? ''))
    expect(page).toContain('margin と padding の違い')
    expect(page).toMatch(/<h2[^>]*>わかったこと<\/h2>/)
    expect(page).toContain('開発者ツールのボックスモデル表示で')
  })

  it('shows a premium course’s lessons (locked for a guest) and its tags', async () => {
    const premium = demoCourses.find((course) => course.access === 'premium')
    const page = await html(await addressOf('courses', premium?.title ?? ''))
    const lessons = (demoLessons[premium?.title ?? ''] ?? []).flatMap((s) => s.lessons)
    expect(lessons.length).toBeGreaterThan(0)
    for (const lesson of lessons) expect(page).toContain(lesson.title)
    const catalogue = await html(`/courses?tag=${encodeURIComponent(premium?.tags[0] ?? '')}`)
    expect(catalogue).toContain(premium?.title)
  })

  it('shows the demo users’ follows on a profile', async () => {
    const page = await html('/techlab/followers')
    expect(page).toContain('佐藤さくら')
    expect(page).toContain('田中健太')
  })
})
