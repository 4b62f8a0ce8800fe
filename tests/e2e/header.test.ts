import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { CLIENT_ID, signedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { launchBrowser, waitForHydration } from './browser.ts'

let server: TestServer
let browser: Browser
let cookie: string
const USERNAME = 'headerwidths'

beforeAll(async () => {
  server = await startTestServer()
  browser = await launchBrowser()
  cookie = amplifyCookieHeader(CLIENT_ID, USERNAME, await signedInUser(server, USERNAME))
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

async function open(
  width: number,
  signedIn: boolean,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width, height: 900 },
  })
  if (signedIn) {
    await context.addCookies(
      cookie.split('; ').map((pair) => {
        const at = pair.indexOf('=')
        return {
          name: pair.slice(0, at),
          value: pair.slice(at + 1),
          domain: '127.0.0.1',
          path: '/',
        }
      }),
    )
  }
  return { context, page: await context.newPage() }
}

/** Every visible control of the header's bar, with its box, and how far the page overflows. */
function measureHeader(page: Page) {
  return page.evaluate(() => {
    const bar = document.querySelector('header > div') as HTMLElement
    const barBox = bar.getBoundingClientRect()
    const items = [...bar.querySelectorAll('a, summary, button, input')]
      // A closed <details> keeps its content laid out (hidden by content-visibility).
      .filter((element) => element.tagName === 'SUMMARY' || !element.closest('details:not([open])'))
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0)
      .map(({ element, box }) => ({
        name: element.textContent?.trim() || element.getAttribute('aria-label') || element.tagName,
        top: box.top,
        bottom: box.bottom,
        right: box.right,
      }))
    return {
      barTop: barBox.top,
      barBottom: barBox.bottom,
      barHeight: barBox.height,
      items,
      pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      barOverflow: bar.scrollWidth - bar.clientWidth,
    }
  })
}

describe('the header at every width', () => {
  for (const width of [1024, 1280, 1920, 390]) {
    for (const signedIn of [false, true]) {
      test(`${width} px, ${signedIn ? 'signed in' : 'guest'}: one bar, nothing taller or wider`, async () => {
        const { context, page } = await open(width, signedIn)
        try {
          await page.goto('/')
          const measured = await measureHeader(page)
          expect(measured.barHeight).toBe(64)
          expect(measured.items.length).toBeGreaterThan(2)
          for (const item of measured.items) {
            expect(item, `${item.name} stays inside the bar`).toMatchObject({
              top: expect.toSatisfy((top: number) => top >= measured.barTop),
              bottom: expect.toSatisfy((bottom: number) => bottom <= measured.barBottom),
              right: expect.toSatisfy((right: number) => right <= width),
            })
          }
          expect(measured.pageOverflow).toBe(0)
          expect(measured.barOverflow).toBe(0)
          // The sections' links are either in the bar or in the menu, never squeezed.
          const sections = page.getByRole('navigation', { name: 'メインメニュー' })
          if (width >= 1280) await expect.poll(() => sections.isVisible()).toBe(true)
          else
            expect(await page.locator('summary[aria-label="メニューを開く"]').isVisible()).toBe(
              true,
            )
        } finally {
          await context.close()
        }
      })
    }
  }
})

describe('finding where to create things', () => {
  test('the 投稿する menu leads to each create page', async () => {
    const { context, page } = await open(1280, true)
    try {
      await page.goto('/')
      await waitForHydration(page)
      const menu = page.locator('[data-create-menu]')
      await menu.locator('summary').click()
      const links = menu.getByRole('navigation', { name: '投稿する' }).getByRole('link')
      expect(
        await links.evaluateAll((all) => all.map((link) => link.getAttribute('href'))),
      ).toEqual([
        `/${USERNAME}/courses/create`,
        `/${USERNAME}/studies/create`,
        `/${USERNAME}/labs/create`,
        `/${USERNAME}/labs_stories/create`,
      ])
      await links.filter({ hasText: 'スタディ' }).click()
      await page.waitForURL(`**/${USERNAME}/studies/create`)
      expect(await menu.getAttribute('open')).toBeNull()
    } finally {
      await context.close()
    }
  })

  test('lists, drafts and my own profile have create buttons; guests and other profiles do not', async () => {
    const { context, page } = await open(1280, true)
    const guest = await open(1280, false)
    try {
      const cases = [
        ['/studies', 'スタディを書く', `/${USERNAME}/studies/create`],
        ['/labs', 'ラボを作る', `/${USERNAME}/labs/create`],
        ['/labs_stories', 'ストーリーを書く', `/${USERNAME}/labs_stories/create`],
        ['/drafts', 'コースを作る', `/${USERNAME}/courses/create`],
        [`/${USERNAME}`, 'コースを作る', `/${USERNAME}/courses/create`],
        [`/${USERNAME}/studies`, 'スタディを書く', `/${USERNAME}/studies/create`],
        [`/${USERNAME}/labs`, 'ラボを作る', `/${USERNAME}/labs/create`],
      ] as const
      for (const [path, label, href] of cases) {
        await page.goto(path)
        const button = page.getByRole('main').getByRole('link', { name: label })
        expect(await button.getAttribute('href'), path).toBe(href)
      }
      for (const path of ['/studies', '/labs', `/${USERNAME}/studies`]) {
        await guest.page.goto(path)
        expect(
          await guest.page
            .getByRole('main')
            .getByRole('link', { name: /を書く|を作る/ })
            .count(),
        ).toBe(0)
      }
      // Someone else's profile: no button to create under their name.
      await page.goto('/sakura_dev/studies')
      expect(
        await page.getByRole('main').getByRole('link', { name: 'スタディを書く' }).count(),
      ).toBe(0)
    } finally {
      await context.close()
      await guest.context.close()
    }
  })

  test('on a phone every profile tab is on the screen', async () => {
    const { context, page } = await open(390, false)
    try {
      await page.goto('/sakura_dev')
      const tabs = page.getByRole('navigation', { name: 'プロフィールのタブ' }).getByRole('link')
      expect(await tabs.count()).toBe(6)
      for (const box of await tabs.evaluateAll((all) =>
        all.map((tab) => tab.getBoundingClientRect().right),
      )) {
        expect(box).toBeLessThanOrEqual(390)
      }
    } finally {
      await context.close()
    }
  })
})
