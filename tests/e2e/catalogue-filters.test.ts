import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { demoCourses } from '#db/seed/demo-content.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { collectPageErrors, launchBrowser, waitForHydration } from './browser.ts'

let server: TestServer
let browser: Browser
const intermediate = demoCourses.filter((course) => course.level === 'intermediate')
// The demo courses carry tags from the seed.
const html = demoCourses.filter((course) => course.tags.includes('html'))

beforeAll(async () => {
  server = await startTestServer()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

test('the catalogue filters by tag and level, keeping the state in the URL', async () => {
  expect(intermediate.length).toBeGreaterThan(0)
  const context = await browser.newContext({ baseURL: server.url })
  const page = await context.newPage()
  const errors = collectPageErrors(page)
  try {
    await page.goto('/courses')
    await waitForHydration(page)
    const cards = page.getByRole('main').locator('article')
    // Cards show their tags, and every card has a 16:9 cover area, image or not.
    const tagged = cards.filter({ hasText: demoCourses[0]?.title ?? '' })
    for (const tag of demoCourses[0]?.tags ?? [])
      expect(await tagged.getByRole('link', { name: `#${tag}` }).count()).toBe(1)
    const coverHeights = await cards.evaluateAll((all) =>
      all.map((card) => (card.firstElementChild as HTMLElement).getBoundingClientRect().height),
    )
    expect(new Set(coverHeights).size).toBe(1)

    await page.getByLabel('タグ').selectOption('html')
    await page.waitForURL((url) => url.searchParams.get('tag') === 'html')
    await expect.poll(() => cards.count()).toBe(html.length)

    await page.getByLabel('レベル').selectOption('intermediate')
    await page.waitForURL((url) => url.searchParams.get('level') === 'intermediate')
    const expected = html.filter((course) => course.level === 'intermediate').length
    await expect.poll(() => cards.count()).toBe(expected)

    // The URL alone brings the same list back, for a link or a reload.
    await page.goto('/courses?level=intermediate')
    await expect.poll(() => cards.count()).toBe(intermediate.length)
    expect(await page.getByLabel('レベル').inputValue()).toBe('intermediate')
    await page.getByRole('link', { name: '条件をクリア' }).click()
    await page.waitForURL((url) => url.search === '')

    // A value that is no filter is refused with a message, not a crash.
    const refused = await page.goto('/courses?level=expert')
    expect(refused?.status()).toBe(400)
    expect(await page.getByRole('alert').textContent()).toBeTruthy()
    expect(errors).toEqual([])
  } finally {
    await context.close()
  }
})
