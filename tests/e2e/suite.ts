import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { CLIENT_ID, signedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { launchBrowser, newPhonePage } from './browser.ts'

/**
 * For an e2e file: the real server and Chromium for all its tests, closed after them, and
 * phone-sized pages as a guest or as a newly signed-up user.
 */
export function browserSuite(environment: Record<string, string> = {}) {
  let server: TestServer
  let browser: Browser
  const contexts: BrowserContext[] = []
  beforeAll(async () => {
    server = await startTestServer(environment)
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()))
    await browser?.close()
    await server?.close()
  })
  async function newPage(cookieHeader?: string): Promise<Page> {
    const page = await newPhonePage(browser, server.url, cookieHeader)
    contexts.push(page.context())
    return page
  }
  return {
    /** The running server (during the tests). */
    get server(): TestServer {
      return server
    },
    newPage,
    /** A page signed in as a new user of this name (signed up and confirmed first). */
    async signedInPage(username: string): Promise<Page> {
      const tokens = await signedInUser(server, username)
      return newPage(amplifyCookieHeader(CLIENT_ID, username, tokens))
    },
  }
}
