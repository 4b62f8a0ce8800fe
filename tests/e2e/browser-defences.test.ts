import { createServer, type Server } from 'node:http'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { registerUser } from '#tests/integration/identity/support.ts'
import { collectPageErrors, markdownEditor, waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * The pages' Content-Security-Policy in Chromium (docs/decisions/020): everything the site
 * itself does runs under it without a single violation, an injected inline script does not
 * run, and a page on a sibling origin cannot make the API write with the visitor's cookies.
 */
const suite = browserSuite()

/** Records the page's CSP violations (and Chromium's console reports of them). */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const reported: string[] = []
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) reported.push(message.text())
  })
  await page.addInitScript(() => {
    const seen: string[] = []
    Object.assign(window, { __violations: seen })
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI}`)
    })
  })
  return async () => [
    ...reported,
    ...(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)),
  ]
}

async function firstHref(page: Page, pattern: RegExp): Promise<string> {
  const hrefs = await page
    .locator('a[href]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
  const href = hrefs.find((candidate) => pattern.test(candidate))
  if (!href) throw new Error(`no link matches ${pattern}`)
  return href
}

describe('the site under its Content-Security-Policy', () => {
  test('home, a course, a lesson and search run without a violation, hydrated', async () => {
    const page = await suite.newPage()
    const violations = await watchViolations(page)
    const errors = collectPageErrors(page)
    await page.goto('/')
    await waitForHydration(page)
    await page.goto('/courses')
    await waitForHydration(page)
    const course = await firstHref(page, /^\/[^/]+\/courses\/[^/]+$/)
    await page.goto(course)
    await waitForHydration(page)
    const lesson = await firstHref(page, /\/lessons\//)
    await page.goto(lesson)
    await waitForHydration(page)
    // A client-side navigation too (React Router's data requests and module loads).
    await page.locator(`a[href="${course}"]`).first().click()
    await page.waitForURL((url) => url.pathname === course)
    await page.goto('/search?q=Python')
    await waitForHydration(page)
    expect(await violations()).toEqual([])
    expect(errors).toEqual([])
  })

  test('signing in with Amplify, the settings and the Markdown editor run without a violation', async () => {
    const username = `csp_${Date.now().toString(36)}`
    const password = 'Hajimete1!'
    await registerUser(suite.server, { username, email: `${username}@example.com`, password })
    const page = await suite.newPage()
    const violations = await watchViolations(page)
    await page.goto('/auth/signin?redirectTo=/settings')
    await waitForHydration(page)
    await page.getByLabel('ユーザー名またはメールアドレス').fill(username)
    await page.getByLabel('パスワード', { exact: true }).fill(password)
    await page.getByRole('button', { name: 'ログイン', exact: true }).click()
    await page.waitForURL((url) => url.pathname === '/settings')
    await waitForHydration(page)
    await page.getByRole('heading', { name: '設定' }).first().waitFor()
    await page.goto(`/${username}/studies/create`)
    await waitForHydration(page)
    const editor = await markdownEditor(page, 'ノート（Markdown）')
    await editor.fill('# 見出し\n\n```js\nconsole.log(1)\n```')
    await expect.poll(() => page.locator('[id$="-panel-preview"] h1').textContent()).toBe('見出し')
    expect(await violations()).toEqual([])
  })

  test('an inline script without the nonce does not run', async () => {
    const page = await suite.newPage()
    const violations = await watchViolations(page)
    await page.goto('/')
    await waitForHydration(page)
    const ran = await page.evaluate(() => {
      const script = document.createElement('script')
      script.textContent = 'window.__injected = true'
      document.body.append(script)
      return (window as unknown as { __injected?: boolean }).__injected === true
    })
    expect(ran).toBe(false)
    expect((await violations()).some((line) => line.startsWith('script-src'))).toBe(true)
  })
})

describe('a page on a sibling origin (same site, another port)', () => {
  let sibling: Server
  let siblingUrl: string
  beforeAll(async () => {
    sibling = createServer((request, response) => {
      const target = new URL(request.url ?? '/', 'http://x').searchParams.get('target') ?? ''
      response.setHeader('content-type', 'text/html; charset=utf-8')
      // What an uploads host or any sibling could serve: a form that posts with the visitor's cookies.
      response.end(`<!doctype html><form method="post" enctype="text/plain" action="${target}">
        <input name="a" value="b"></form><script>document.forms[0].submit()</script>`)
    })
    await new Promise<void>((resolve) => sibling.listen(0, '127.0.0.1', resolve))
    const address = sibling.address()
    siblingUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  })
  afterAll(async () => {
    await new Promise((resolve) => sibling?.close(resolve))
  })

  test('cannot make a signed-in visitor follow someone', async () => {
    await registerUser(suite.server, {
      username: 'csrf_target',
      email: 'csrf_target@example.com',
      password: 'Hajimete1!',
    })
    const page = await suite.signedInPage('csrf_victim')
    const target = `${suite.server.url}/api/users/csrf_target/follow`
    const answer = page.waitForResponse((response) => response.url() === target)
    await page.goto(`${siblingUrl}/?target=${encodeURIComponent(target)}`)
    expect((await answer).status()).toBe(403)
    const state = await page.request.get(target)
    expect(await state.json()).toMatchObject({ following: false })
  })
})
