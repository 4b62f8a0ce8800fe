import { setTimeout as delay } from 'node:timers/promises'
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { demoCourses } from '#db/seed/demo-content.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { collectPageErrors, launchBrowser, waitForHydration } from './browser.ts'

const SITE_TITLE = 'テックラボ はじめてのプログラミング講座'

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

async function open(
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: server.url, ...options })
  contexts.push(context)
  return { context, page: await context.newPage() }
}

const scrollY = (page: Page) => page.evaluate(() => window.scrollY)
const marker = (page: Page) =>
  page.evaluate(() => (window as unknown as { __marker?: number }).__marker)

describe('server rendering', () => {
  test('the home page arrives rendered, with its title, language and description', async () => {
    const { page } = await open({ javaScriptEnabled: false })
    const response = await page.goto('/')
    expect(response?.status()).toBe(200)

    // The HTML as the server sent it…
    const html = (await response?.text()) ?? ''
    expect(html).toMatch(/^<!DOCTYPE html><html lang="ja">/i)
    expect(html).toContain(`<title>${SITE_TITLE}</title>`)
    expect(html).toContain('はじめてのプログラミングを、')
    for (const course of demoCourses.slice(0, 6)) expect(html).toContain(course.title)

    // …and as a browser without JavaScript shows it.
    expect(await page.title()).toBe(SITE_TITLE)
    expect(await page.locator('html').getAttribute('lang')).toBe('ja')
    const descriptions = page.locator('head meta[name="description"]')
    expect(await descriptions.count()).toBe(1)
    expect(await descriptions.getAttribute('content')).toMatch(/プログラミング.*学習サイト/)
    expect(await page.locator('h1').count()).toBe(1)
    expect(await page.locator('h1').textContent()).toContain('いちばんやさしく。')
    const cards = page.locator('section[aria-labelledby="featured-heading"] article')
    expect(await cards.locator('h3').allInnerTexts()).toEqual(
      demoCourses.slice(0, 6).map((course) => course.title),
    )
  })
})

describe('client navigation', () => {
  test('a link scrolls the new page to the top; Back restores the scroll position', async () => {
    // Wide enough for the header's main menu (lg), short enough for the home page to scroll.
    const { page } = await open({ viewport: { width: 1280, height: 500 } })
    const errors = collectPageErrors(page)
    await page.goto('/')
    await waitForHydration(page)

    await page.locator('footer').scrollIntoViewIfNeeded()
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
    await expect.poll(() => scrollY(page)).toBeGreaterThan(500)
    await page.evaluate(() => {
      const state = window as unknown as { __marker?: number; __scrollAtClick?: number }
      state.__marker = 1
      // Playwright may nudge the page while bringing the link under the pointer, so the
      // position to restore is the one at the moment of the click, not the one set above.
      window.addEventListener('click', () => (state.__scrollAtClick = window.scrollY), {
        capture: true,
        once: true,
      })
    })

    // The header is sticky: its link to /courses is on screen at the foot of the page.
    await page
      .getByRole('navigation', { name: 'メインメニュー' })
      .getByRole('link', { name: 'コース' })
      .click()
    await page.waitForURL('**/courses')
    await page.getByRole('heading', { level: 1, name: 'コース一覧' }).waitFor()
    expect(await marker(page), 'the navigation reloaded the page').toBe(1)
    await expect.poll(() => scrollY(page)).toBe(0)
    const saved = await page.evaluate(
      () => (window as unknown as { __scrollAtClick?: number }).__scrollAtClick ?? 0,
    )
    expect(saved).toBeGreaterThan(500)

    await page.goBack()
    await page.waitForURL((url) => url.pathname === '/')
    await page.getByRole('heading', { level: 1, name: /はじめてのプログラミング/ }).waitFor()
    expect(await marker(page), 'Back reloaded the page').toBe(1)
    // Without restoration it would be at the top.
    await expect
      .poll(async () => Math.abs((await scrollY(page)) - saved), { timeout: 5_000 })
      .toBeLessThanOrEqual(2)
    expect(errors).toEqual([])
  })

  test('the loading bar shows during a slow navigation and goes away after it', async () => {
    const { page } = await open({ viewport: { width: 1280, height: 800 } })
    await page.goto('/')
    await waitForHydration(page)

    // Slow down React Router's data requests (/courses.data and the like).
    let delayed = 0
    await page.route('**/*.data*', async (route) => {
      delayed += 1
      await delay(1500)
      await route.continue().catch(() => {})
    })

    const bar = page.locator('[role="progressbar"]')
    expect(await bar.count()).toBe(0)
    await page.getByRole('link', { name: 'すべてのコースを見る' }).click()
    // Shown after the 200 ms throttle, well before the delayed answer arrives.
    await bar.waitFor({ state: 'visible', timeout: 5_000 })
    expect(new URL(page.url()).pathname, 'the bar showed only after the navigation').toBe('/')
    expect(await bar.getAttribute('aria-label')).toBe('読み込み中')

    await page.getByRole('heading', { level: 1, name: 'コース一覧' }).waitFor({ timeout: 10_000 })
    expect(new URL(page.url()).pathname).toBe('/courses')
    expect(delayed).toBeGreaterThan(0)
    // Finished, then hidden after the 500 ms hide delay.
    await bar.waitFor({ state: 'hidden', timeout: 3_000 })
  })
})

describe('pages that do not exist', () => {
  for (const path of ['/a/b/c/d/e', '/no-such-user']) {
    test(`${path} answers 404 with the error page`, async () => {
      const { page } = await open()
      const errors = collectPageErrors(page)
      const response = await page.goto(path)
      expect(response?.status()).toBe(404)
      // The site title is appended only when the root loader ran: a URL no route matches at
      // all (/a/b/c/d/e) runs no loader, so its title (and header) lack the configured name.
      expect(await page.title()).toMatch(/^404: This page could not be found( \| |$)/)

      await waitForHydration(page)
      // Still the error page once hydrated (a hydration failure would replace it).
      const heading = page.getByRole('heading', { level: 1 })
      expect(await heading.textContent()).toBe('ページが見つかりません')
      expect(
        await page.getByText('This page could not be found', { exact: true }).isVisible(),
      ).toBe(true)
      const home = page.getByRole('link', { name: /ホームに戻る.*Back to the home page/ })
      await home.waitFor()
      expect(await home.getAttribute('href')).toBe('/')
      expect(errors).toEqual([])
    })
  }

  // React Router runs no loader when no route matches; the catch-all route makes sure the
  // error page still gets the configured site title.
  test('a URL no route matches still shows the configured site title', async () => {
    const { page } = await open({ viewport: { width: 1280, height: 800 } })
    const response = await page.goto('/a/b/c/d/e')
    expect(response?.status()).toBe(404)
    const brand = page.getByRole('banner').getByRole('link', { name: /^テックラボ/ })
    expect(await brand.textContent()).toContain(SITE_TITLE)
    expect(await page.title()).toBe(`404: This page could not be found | ${SITE_TITLE}`)
  })
})

describe('network status', () => {
  test('says when the browser goes offline and when it is back online', async () => {
    const { context, page } = await open()
    await page.goto('/')
    await waitForHydration(page)

    const offline = page.locator('[role="status"]', { hasText: 'オフラインです' })
    const online = page.locator('[role="status"]', { hasText: 'オンラインに戻りました' })
    expect(await offline.count()).toBe(0)

    await context.setOffline(true)
    await offline.waitFor({ state: 'visible', timeout: 5_000 })
    expect(await page.evaluate(() => navigator.onLine)).toBe(false)

    await context.setOffline(false)
    await online.waitFor({ state: 'visible', timeout: 5_000 })
    await offline.waitFor({ state: 'hidden', timeout: 1_000 })
    // The "back online" notice is brief (3 s).
    await online.waitFor({ state: 'hidden', timeout: 8_000 })
  })
})
