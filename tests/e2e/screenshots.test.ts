import { mkdir, stat } from 'node:fs/promises'
import path from 'node:path'
import type { Browser, BrowserContextOptions } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { launchBrowser, waitForHydration } from './browser.ts'

/** Screenshots for a person to look at; outside the repository, never committed. */
const SHOTS_DIRECTORY = process.env.E2E_SHOTS_DIR ?? '/tmp/e2e-shots'

const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } }
const PHONE_DARK: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  colorScheme: 'dark',
}

const SHOTS: { name: string; path: string; options: BrowserContextOptions; status?: number }[] = [
  { name: 'home-1280-light', path: '/', options: DESKTOP },
  { name: 'home-390-dark', path: '/', options: PHONE_DARK },
  { name: 'courses-1280-light', path: '/courses', options: DESKTOP },
  { name: 'courses-390-dark', path: '/courses', options: PHONE_DARK },
  { name: 'not-found-1280-light', path: '/a/b/c/d/e', options: DESKTOP, status: 404 },
]

let server: TestServer
let browser: Browser

beforeAll(async () => {
  server = await startTestServer()
  browser = await launchBrowser()
  await mkdir(SHOTS_DIRECTORY, { recursive: true })
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe('screenshots', () => {
  for (const shot of SHOTS) {
    test(`${shot.name}: ${shot.path}`, async () => {
      const context = await browser.newContext({ baseURL: server.url, ...shot.options })
      try {
        const page = await context.newPage()
        const response = await page.goto(shot.path)
        expect(response?.status()).toBe(shot.status ?? 200)
        await waitForHydration(page)
        await page.evaluate(() => document.fonts.ready.then(() => undefined))

        // Nothing may be wider than the screen (no sideways scrolling on a phone).
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        )
        expect(overflow, 'the page scrolls sideways').toBe(0)

        for (const fullPage of [false, true]) {
          const file = path.join(SHOTS_DIRECTORY, `${shot.name}${fullPage ? '-full' : ''}.png`)
          await page.screenshot({ path: file, fullPage, animations: 'disabled' })
          expect((await stat(file)).size).toBeGreaterThan(0)
        }
      } finally {
        await context.close()
      }
    })
  }
})
