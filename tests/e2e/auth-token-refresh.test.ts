import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { confirmedUser, newUsername, signInScreen, submitSignIn } from './auth-support.ts'
import { launchBrowser, waitForHydration } from './browser.ts'

/**
 * Tokens that live 3 s: shorter than the 5 s margin within which Amplify in the page counts a
 * token as expired, so the page refreshes it; the server's clock moves past them.
 */
let shortLived: TestServer
let browser: Browser

beforeAll(async () => {
  shortLived = await startTestServer({ ACCESS_TOKEN_TTL_S: '3', ID_TOKEN_TTL_S: '3' })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await shortLived?.close()
})

describe('a session whose access token expired while the browser was away', () => {
  test('is refreshed in the browser, and the page then shows the user again', async () => {
    const name = newUsername()
    await confirmedUser(shortLived, name)
    const { tabContext: away, tab, errors: tabErrors } = await signInScreen(browser, shortLived)
    try {
      await submitSignIn(tab, name)
      await tab.waitForURL(`${shortLived.url}/`)
      await tab.close()

      // The browser is away longer than the access token lives.
      shortLived.clock.advance(3500)
      const back = await away.newPage()
      const response = await back.goto('/')
      expect(await response?.text()).not.toContain('data-user-menu')
      await waitForHydration(back)
      await back.locator('[data-user-menu]').waitFor({ timeout: 15_000 })
      expect(await back.locator('header').textContent()).toContain(name)
      expect(tabErrors).toEqual([])
    } finally {
      await away.close()
    }
  })
})
