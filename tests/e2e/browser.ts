import { accessSync, constants } from 'node:fs'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { startTestServer, type TestServer } from '../support/test-server.ts'

/**
 * Debian's Chromium, driven by playwright-core. Playwright's own browser downloads are not
 * used (and cannot work offline): `.ci/run` installs the `chromium` package with apt.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
] as const

/**
 * Launches headless Chromium. `chromium.launch` gives every launch a fresh temporary
 * user-data directory of its own (Playwright creates it, passes `--user-data-dir` itself and
 * deletes it on close), so no profile state leaks between test files.
 */
export async function launchBrowser(): Promise<Browser> {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK)
  } catch {
    throw new Error(
      `Chromium is missing: ${CHROMIUM_PATH} does not exist or is not executable. ` +
        'The e2e tests drive the system Chromium; .ci/run installs it with apt ' +
        '(apt-get install chromium), or set CHROMIUM_PATH to another Chromium binary.',
    )
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
  })
}

/**
 * Waits until React has hydrated the server-rendered page, so that links navigate on the
 * client and effects (scroll restoration, online/offline listeners) are in place.
 * ScrollRestoration switches `history.scrollRestoration` to "manual" in an effect that runs
 * after the hydration commit; React's props on a link show that its handlers are attached.
 */
export async function waitForHydration(page: Page, timeout = 15_000): Promise<void> {
  await page.waitForFunction(
    () => {
      const link = document.querySelector('a[href]')
      return (
        window.history.scrollRestoration === 'manual' &&
        link !== null &&
        Object.keys(link).some((key) => key.startsWith('__reactProps$'))
      )
    },
    undefined,
    { timeout },
  )
}

/**
 * Collects what would show as a red error in the console: uncaught exceptions and
 * `console.error` calls (React reports hydration mismatches there). Failed requests are left
 * out: Chromium logs every 4xx/5xx answer, and tests check statuses themselves.
 */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    if (message.text().startsWith('Failed to load resource')) return
    errors.push(`console.error: ${message.text()}`)
  })
  return errors
}

/**
 * A page in a fresh phone-sized context at `baseURL`, signed in when given a Cookie header
 * (for example from amplifyCookieHeader); the caller closes the context.
 */
export async function newPhonePage(
  browser: Browser,
  baseURL: string,
  cookieHeader?: string,
): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } })
  if (cookieHeader) {
    const { hostname } = new URL(baseURL)
    await context.addCookies(
      cookieHeader.split('; ').map((pair) => {
        const at = pair.indexOf('=')
        return { name: pair.slice(0, at), value: pair.slice(at + 1), domain: hostname, path: '/' }
      }),
    )
  }
  return context.newPage()
}

/**
 * For a test file: the real server and Chromium, started before its tests and closed after
 * them, and phone-sized pages on that server (signed in when given a Cookie header).
 */
export function serverWithBrowser() {
  let server: TestServer | undefined
  let browser: Browser | undefined
  const contexts: BrowserContext[] = []
  beforeAll(async () => {
    server = await startTestServer()
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()))
    await browser?.close()
    await server?.close()
  })
  const started = () => {
    if (!server || !browser) throw new Error('serverWithBrowser() is used before its tests run')
    return { server, browser }
  }
  return {
    get server(): TestServer {
      return started().server
    },
    async newPage(cookieHeader?: string): Promise<Page> {
      const { server, browser } = started()
      const page = await newPhonePage(browser, server.url, cookieHeader)
      contexts.push(page.context())
      return page
    },
  }
}
