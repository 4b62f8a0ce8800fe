import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import {
  CLIENT_ID,
  latestCode,
  newUsername,
  password,
  sessionCookies,
  userPool,
} from './auth-support.ts'
import { collectPageErrors, launchBrowser, waitForHydration } from './browser.ts'

/**
 * The whole life of an account in Chromium, through the unmodified aws-amplify in the page
 * against the server's own user pool: sign up, read the code from the dev mailbox, confirm,
 * sign in, reload (the server renders the signed-in page from the cookies), sign out. One
 * story on one page: each step starts where the one before left the screen.
 */
let server: TestServer
let browser: Browser
let context: BrowserContext
let page: Page
let errors: string[]

const username = newUsername()
const email = `${username}@example.com`

beforeAll(async () => {
  server = await startTestServer()
  browser = await launchBrowser()
  context = await browser.newContext({ baseURL: server.url })
  page = await context.newPage()
  errors = collectPageErrors(page)
})

afterAll(async () => {
  await context?.close()
  await browser?.close()
  await server?.close()
})

describe('an account from sign-up to sign-out', () => {
  test('sign up: the form explains the rules and sends a code', async () => {
    await page.goto('/auth/signup')
    await waitForHydration(page)
    expect(await page.locator('h1').textContent()).toBe('無料で新規登録')

    // Field errors in Japanese, tied to their fields, with focus on the first one.
    await page.getByLabel('ユーザー名').fill('No Good')
    await page.getByRole('button', { name: '登録する' }).click()
    const usernameField = page.getByLabel('ユーザー名')
    await expect.poll(() => usernameField.getAttribute('aria-invalid')).toBe('true')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('username')
    const describedBy = (await usernameField.getAttribute('aria-describedby')) ?? ''
    const described = await page.evaluate(
      (ids) => ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' '),
      describedBy.split(' '),
    )
    expect(described).toContain('半角の英小文字')

    // The password checklist follows what is typed.
    const password_ = page.getByLabel('パスワード', { exact: true })
    await password_.fill('abc')
    expect(await page.locator('[data-rule="lower"]').getAttribute('data-met')).toBe('true')
    expect(await page.locator('[data-rule="upper"]').getAttribute('data-met')).toBe('false')

    await usernameField.fill(username)
    await page.getByLabel('メールアドレス').fill(email)
    await password_.fill(password)
    expect(await page.locator('[data-met="false"]').count()).toBe(0)
    await page.getByRole('button', { name: '登録する' }).click()
    await page.waitForURL(/\/auth\/confirm\?/)
    expect(new URL(page.url()).searchParams.get('username')).toBe(username)
  })

  test('confirm: a wrong code is refused, the mailed one accepted', async () => {
    const code = await latestCode(server, email)
    const wrong = code === '000000' ? '111111' : '000000'
    await page.getByLabel('確認コード（6桁）').fill(wrong)
    await page.getByRole('button', { name: '登録を完了する' }).click()
    await expect
      .poll(() => page.getByLabel('確認コード（6桁）').getAttribute('aria-invalid'))
      .toBe('true')
    expect(await page.textContent('main')).toContain('コードが正しくありません')

    await page.getByLabel('確認コード（6桁）').fill(code)
    await page.getByRole('button', { name: '登録を完了する' }).click()
    await page.waitForURL(/\/auth\/signin\?/)
    await expect.poll(() => page.locator('h1').textContent()).toBe('ログイン')
    expect(await page.textContent('main')).toContain('登録が完了しました')
    expect(await page.getByLabel('ユーザー名またはメールアドレス').inputValue()).toBe(username)
  })

  test('sign in: a wrong password gets a clear message, the right one signs in', async () => {
    await page.getByLabel('パスワード', { exact: true }).fill('Wrong-pass1')
    await page.getByRole('button', { name: 'ログイン', exact: true }).click()
    await expect
      .poll(() => page.locator('[role="alert"], [aria-invalid="true"]').count())
      .toBeGreaterThan(0)
    expect(await page.textContent('main')).toContain('パスワードが正しくありません')
    expect(await sessionCookies(context)).toHaveLength(0)

    await page.getByLabel('パスワード', { exact: true }).fill(password)
    await page.getByRole('button', { name: 'ログイン', exact: true }).click()
    await page.waitForURL(`${server.url}/`)
    await expect.poll(() => page.locator('[data-user-menu]').count()).toBe(1)
    expect(await page.locator('header').textContent()).toContain(username)
    expect(await page.locator('header').textContent()).not.toContain('無料で始める')

    const cookies = await sessionCookies(context)
    const names = cookies.map((cookie) => cookie.name)
    const base = 'CognitoIdentityServiceProvider.techlabwebclient0000000000'
    expect(names).toEqual(
      expect.arrayContaining([
        `${base}.LastAuthUser`,
        `${base}.${username}.accessToken`,
        `${base}.${username}.idToken`,
        `${base}.${username}.refreshToken`,
      ]),
    )
    for (const cookie of cookies) {
      expect(cookie.path).toBe('/')
      expect(cookie.sameSite).toBe('Lax')
      // A year, give or take the test's own duration.
      expect(cookie.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000)
    }
  })

  test('reload: the server renders the signed-in page from the cookies', async () => {
    const response = await page.reload()
    expect(response?.status()).toBe(200)
    const html = (await response?.text()) ?? ''
    expect(html).toContain('data-user-menu')
    expect(html).toContain(`@${username}`)
    expect(response?.headers()['cache-control']).toBe('private, no-store')
    await waitForHydration(page)

    // Settings are for signed-in users: also rendered by the server.
    const settings = await page.goto('/settings')
    expect(settings?.status()).toBe(200)
    const settingsHtml = (await settings?.text()) ?? ''
    expect(settingsHtml).toContain(email)
    expect(settingsHtml).toContain('パスワードの変更')
  })

  test('sign out: the header offers sign-in again, and the server agrees', async () => {
    const refreshToken = (await sessionCookies(context)).find((cookie) =>
      cookie.name.endsWith('.refreshToken'),
    )?.value
    expect(refreshToken).toBeTruthy()
    await page.goto('/')
    await waitForHydration(page)
    await page.locator('[data-user-menu] summary').click()
    // One step from the menu: no confirmation page in between.
    await page.getByRole('button', { name: 'ログアウト', exact: true }).click()
    await page.waitForURL(/\/auth\/signout$/)
    await expect.poll(() => page.locator('h1').textContent()).toBe('ログアウトしました')
    expect(await sessionCookies(context)).toHaveLength(0)

    const home = await page.goto('/')
    const html = (await home?.text()) ?? ''
    expect(html).not.toContain('data-user-menu')
    expect(html).toContain('href="/auth/signin"')

    // Signing out revoked the refresh token: it can mint no new session.
    await expect(
      userPool(server).send(
        new InitiateAuthCommand({
          ClientId: CLIENT_ID,
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          AuthParameters: { REFRESH_TOKEN: refreshToken ?? '' },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' })

    const settings = await page.goto('/settings')
    expect(new URL(page.url()).pathname).toBe('/auth/signin')
    expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/settings')
    expect(settings?.status()).toBe(200)
  })

  test('no errors in the console along the way', () => {
    expect(errors).toEqual([])
  })
})
