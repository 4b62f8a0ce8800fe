import { accessSync, constants } from 'node:fs'
import { type Browser, chromium, type Locator, type Page, type Route } from 'playwright-core'
import { expect } from 'vitest'

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
 * The CodeMirror editor of a Markdown field (app/components/markdown-editor.tsx), once it has
 * replaced the server-rendered textarea. Acting on the field earlier is a trap: Playwright
 * resolves the textarea, which then hides but stays in the page, and an action keeps waiting
 * for that element to become visible instead of finding the editor.
 */
export async function markdownEditor(page: Page, label: string): Promise<Locator> {
  const editor = page.locator('.cm-content').and(page.getByRole('textbox', { name: label }))
  await editor.waitFor()
  return editor
}

/**
 * Holds the page's next `POST {path}` (an editor's first save, which creates the draft) until
 * `release` is called, so a test can type while the draft is being created. The request itself
 * reaches the real server unchanged.
 */
export async function holdCreateRequest(
  page: Page,
  path: string,
): Promise<{ sent: Promise<unknown>; release(): void }> {
  let release!: () => void
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const isCreate = (url: string, method: string) =>
    method === 'POST' && new URL(url).pathname === path
  await page.route(
    (url) => url.pathname === path,
    async (route) => {
      if (isCreate(route.request().url(), route.request().method())) await released
      await route.continue()
    },
  )
  const sent = page.waitForRequest((request) => isCreate(request.url(), request.method()))
  return { sent, release }
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
 * Makes the page's saves to `path` fail as if the network dropped (the server never sees them),
 * until `restore` is called: what the author types then lives only in the page.
 */
export async function dropSaves(page: Page, path: string): Promise<{ restore(): Promise<void> }> {
  const matches = (url: URL) => url.pathname === path
  const handler = async (route: Route) => {
    if (route.request().method() === 'PUT') await route.abort('internetdisconnected')
    else await route.continue()
  }
  await page.route(matches, handler)
  return { restore: () => page.unroute(matches, handler) }
}

/** The state of an editor's (first) save status: `saved`, `dirty`, `saving` or `failed`. */
export function saveState(page: Page): Promise<string | null> {
  return page.locator('[data-save-state]').first().getAttribute('data-save-state')
}

/**
 * Types into an editor while its saves to `savePath` fail, reloads it at `url` (still offline)
 * and waits for the notice of the restored local copy. Saves stay dropped until `restore`.
 */
export async function typeOfflineAndReload(
  page: Page,
  options: { savePath: string; url: string; type(): Promise<void> },
): Promise<{ restore(): Promise<void> }> {
  const offline = await dropSaves(page, options.savePath)
  await options.type()
  await expect.poll(() => saveState(page)).toBe('failed')
  await page.goto(options.url)
  await waitForHydration(page)
  await page.locator('[data-local-copy-notice]').waitFor()
  return offline
}
