import { randomBytes } from 'node:crypto'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type GoogleProvider, startGoogleProvider } from '#tests/support/google-provider.ts'
import { configuredAddress, startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { collectPageErrors, launchBrowser, waitForHydration } from './browser.ts'

/**
 * Google sign-in in Chromium, end to end over the site's TLS listener (self-signed, so the
 * browser context ignores certificate errors): the unmodified Amplify in the page goes to
 * our /oauth2/authorize, a real OpenID provider (oidc-provider) stands in for Google, a
 * first-time user chooses a username, and Amplify exchanges the code at /oauth2/token.
 */
let google: GoogleProvider
let server: TestServer
let browser: Browser
let context: BrowserContext
let page: Page
let errors: string[]
let origin: string

const googleSub = `1${Date.now()}`
const email = `e2e${randomBytes(3).toString('hex')}@gmail.test`
const username = `g_${randomBytes(4).toString('hex')}`

beforeAll(async () => {
  google = await startGoogleProvider()
  server = await startTestServer({ ...google.environment, ...(await configuredAddress()) })
  origin = server.httpsUrl ?? ''
  google.start([`${origin}/oauth2/idpresponse`])
  google.addAccount({ sub: googleSub, email, emailVerified: true, name: 'Google 花子' })
  browser = await launchBrowser()
  context = await browser.newContext({ baseURL: origin, ignoreHTTPSErrors: true })
  page = await context.newPage()
  errors = collectPageErrors(page)
})

afterAll(async () => {
  await context?.close()
  await browser?.close()
  await server?.close()
  await google?.close()
})

async function sessionCookies() {
  return (await context.cookies()).filter((cookie) =>
    cookie.name.startsWith('CognitoIdentityServiceProvider.'),
  )
}

describe('a first sign-in with Google', () => {
  test('the Google button leads to the provider, and back to choose a username', async () => {
    await page.goto('/auth/signin')
    await waitForHydration(page)
    await page.getByRole('button', { name: 'Google でログイン' }).click()

    // The provider's own login and consent pages.
    await page.waitForURL(`${google.issuer}/**`)
    await page.locator('input[name="login"]').fill(googleSub)
    await page.locator('input[name="password"]').fill('any password')
    await page.locator('button[type="submit"]').click()
    await page.waitForURL(/\/interaction\//)
    await page.locator('button[type="submit"]').click()

    await page.waitForURL(`${origin}/auth/setupUsername?**`)
    await waitForHydration(page)
    expect(await page.locator('h1').textContent()).toBe('ユーザー名を決めましょう')
    expect(await page.getByLabel('ユーザー名').inputValue()).toBe(email.split('@')[0])
  })

  test('a username the site refuses is explained; a good one signs in', async () => {
    const field = page.getByLabel('ユーザー名')
    await field.fill('settings')
    await page.getByRole('button', { name: 'このユーザー名で始める' }).click()
    await page.waitForURL(/error=/)
    await waitForHydration(page)
    expect(await page.textContent('main')).toContain('このユーザー名は使えません')

    await page.getByLabel('ユーザー名').fill(username)
    await page.getByRole('button', { name: 'このユーザー名で始める' }).click()
    await page.waitForURL(`${origin}/`)
    await expect.poll(() => page.locator('[data-user-menu]').count()).toBe(1)
    expect(await page.locator('header').textContent()).toContain(username)
    const names = (await sessionCookies()).map((cookie) => cookie.name)
    expect(names).toContain(
      `CognitoIdentityServiceProvider.techlabwebclient0000000000.${username}.refreshToken`,
    )
  })

  test('reload: the server renders the signed-in page', async () => {
    const response = await page.reload()
    const html = (await response?.text()) ?? ''
    expect(html).toContain('data-user-menu')
    expect(html).toContain(`@${username}`)
    await waitForHydration(page)
  })

  test('sign out: through /logout, back on the home page as a guest', async () => {
    const refreshToken = (await sessionCookies()).find((cookie) =>
      cookie.name.endsWith('.refreshToken'),
    )?.value
    const visited: string[] = []
    page.on('request', (request) => visited.push(request.url()))
    await page.goto('/auth/signout')
    await waitForHydration(page)
    await page.getByRole('button', { name: 'ログアウト', exact: true }).click()
    await page.waitForURL(`${origin}/`)
    expect(visited).toContain(
      `${origin}/logout?client_id=techlabwebclient0000000000&logout_uri=${encodeURIComponent(`${origin}/`)}`,
    )
    await expect.poll(async () => (await sessionCookies()).length).toBe(0)
    const home = await page.goto('/')
    expect((await home?.text()) ?? '').not.toContain('data-user-menu')

    // Amplify revoked the refresh token on the way out: the token endpoint refuses it.
    const refreshed = await fetch(`${server.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: 'techlabwebclient0000000000',
        refresh_token: refreshToken ?? '',
      }).toString(),
    })
    expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' })
  })

  test('signing in again goes straight through, without a username step', async () => {
    await page.goto('/auth/signin')
    await waitForHydration(page)
    await page.getByRole('button', { name: 'Google でログイン' }).click()
    // The provider remembers the browser: no login form this time.
    await page.waitForURL(`${origin}/`)
    await expect.poll(() => page.locator('[data-user-menu]').count()).toBe(1)
    expect(await page.locator('header').textContent()).toContain(username)
  })

  test('no errors in the console along the way', () => {
    expect(errors).toEqual([])
  })
})
