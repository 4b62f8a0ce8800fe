import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoCourses } from '#db/seed/demo-content.ts'
import { demoExercises } from '#db/seed/demo-exercises.ts'
import { demoLabs } from '#db/seed/demo-labs.ts'
import { demoLessons } from '#db/seed/demo-lessons.ts'
import { demoStudies } from '#db/seed/demo-social.ts'
import { bodyOf } from '#features/exercises/questions.server.ts'
import { sniffImageType } from '#features/images/image-rules.ts'
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

  it('gives three demo studies exercise sets of all four kinds, each reference passing on the sandbox', async () => {
    const titles = Object.keys(demoExercises)
    expect(titles.length).toBeGreaterThanOrEqual(3)
    const languages = new Set<string>()
    for (const title of titles) {
      const [, username, , studyId] = (await addressOf('studies', title)).split('/')
      const set = await fetch(`${server.url}/api/users/${username}/studies/${studyId}/exercises`)
      expect(set.status, title).toBe(200)
      const { questions } = (await set.json()) as { questions: { kind: string }[] }
      expect(new Set(questions.map((question) => question.kind)), title).toEqual(
        new Set(['single', 'multiple', 'text', 'code']),
      )
      const rows = await server.database.db
        .selectFrom('questions')
        .selectAll()
        .where('study_id', '=', studyId ?? '')
        .where('kind', '=', 'code')
        .execute()
      for (const row of rows) {
        const body = bodyOf(row)
        if (body.kind !== 'code') continue
        languages.add(body.language)
        expect(body.tests.some((test) => test.hidden)).toBe(true)
        const verdict = await server.app.codeSandbox.verify(
          `${row.id}:${row.revision}`,
          { language: body.language, code: body.referenceSolution, timeLimitMs: body.timeLimitMs },
          body.tests,
        )
        expect(verdict.passed, `${title}: ${row.prompt}`).toBe(true)
      }
    }
    expect(languages).toEqual(new Set(['javascript', 'python']))
  }, 120_000)

  it('shows a premium course’s lessons (locked for a guest) and its tags', async () => {
    const premium = demoCourses.find((course) => course.access === 'premium')
    const page = await html(await addressOf('courses', premium?.title ?? ''))
    const lessons = (demoLessons[premium?.title ?? ''] ?? []).flatMap((s) => s.lessons)
    expect(lessons.length).toBeGreaterThan(0)
    for (const lesson of lessons) expect(page).toContain(lesson.title)
    const catalogue = await html(`/courses?tag=${encodeURIComponent(premium?.tags[0] ?? '')}`)
    expect(catalogue).toContain(premium?.title)
  })

  it('shows a drawn cover on every demo course card and lab card, served as a PNG', async () => {
    const covers = (page: string) =>
      [...page.matchAll(/<img src="(\/s3\/techlab\/public\/[^"]+\.png)"/g)].map(
        (match) => match[1] ?? '',
      )
    const api = await fetch(`${server.url}/api/courses?limit=${demoCourses.length}`)
    const cards = ((await api.json()) as { items: { coverKey: string | null }[] }).items
    expect(cards).toHaveLength(demoCourses.length)
    expect(new Set(cards.map((card) => card.coverKey)).size).toBe(demoCourses.length)
    expect(cards.every((card) => card.coverKey?.endsWith('.png'))).toBe(true)

    // The first page of the catalogue: no card falls back to the lettered placeholder.
    const cataloguePage = await html('/courses')
    const catalogue = covers(cataloguePage)
    expect(catalogue.length).toBeGreaterThan(3)
    expect(cataloguePage).not.toContain('place-items-center rounded-lg bg-gradient-to-br')
    const labs = covers(await html('/labs'))
    expect(new Set(labs).size).toBe(demoLabs.length)
    for (const address of [catalogue[0], labs[0]]) {
      const response = await fetch(`${server.url}${address}`)
      expect(response.status, address).toBe(200)
      expect(response.headers.get('content-type')).toBe('image/png')
      const bytes = new Uint8Array(await response.arrayBuffer())
      expect(sniffImageType(bytes)).toBe('image/png')
    }
  })

  it('shows the demo users’ follows on a profile', async () => {
    const page = await html('/techlab/followers')
    expect(page).toContain('佐藤さくら')
    expect(page).toContain('田中健太')
  })
})
