import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { demoCourses } from '#db/seed/demo-content.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { collectPageErrors, launchBrowser, waitForHydration } from './browser.ts'

/** The catalogue's page size (app/routes/courses/catalogue.tsx). */
const PAGE_SIZE = 12

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  server = await startTestServer()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
})

async function openCatalogue(): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 800 },
  })
  contexts.push(context)
  const page = await context.newPage()
  await page.goto('/courses')
  await waitForHydration(page)
  return page
}

const cardsOf = (page: Page) => page.locator('section[aria-label="コース"] > ul > li article')
const scrollToBottom = (page: Page) =>
  page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))

describe('the course catalogue', () => {
  test('loads more courses as the reader scrolls, until there are no more', async () => {
    const total = demoCourses.length
    expect(total).toBe(28)
    const page = await openCatalogue()
    const errors = collectPageErrors(page)
    const cards = cardsOf(page)
    expect(await cards.count()).toBe(PAGE_SIZE)

    const apiRequests: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/courses') apiRequests.push(request.url())
    })
    for (let shown = PAGE_SIZE; shown < total; ) {
      shown = Math.min(shown + PAGE_SIZE, total)
      await scrollToBottom(page)
      await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(shown)
    }
    await page.getByText('No more data :)').waitFor({ timeout: 5_000 })
    expect(apiRequests).toHaveLength(Math.ceil(total / PAGE_SIZE) - 1)

    // Every course once, newest first, with no gap or repeat between pages.
    expect(await cards.locator('h3').allInnerTexts()).toEqual(
      demoCourses.map((course) => course.title),
    )
    expect(errors).toEqual([])
  })

  test('shows an error with Retry when the API fails, and Retry loads more', async () => {
    const page = await openCatalogue()
    const cards = cardsOf(page)
    let failed = 0
    await page.route('**/api/courses*', async (route) => {
      failed += 1
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Internal Server Error' } }),
      })
    })

    await scrollToBottom(page)
    const alert = page.getByRole('alert')
    await alert.getByText('Opps, something went wrong :(').waitFor({ timeout: 10_000 })
    const retry = alert.getByRole('button', { name: 'Retry' })
    await retry.waitFor()
    expect(failed).toBeGreaterThan(0)
    expect(await cards.count()).toBe(PAGE_SIZE)

    await page.unroute('**/api/courses*')
    await retry.click()
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(2 * PAGE_SIZE)
    await alert.waitFor({ state: 'detached', timeout: 1_000 })
  })
})
