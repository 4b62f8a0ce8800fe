import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { confirmedUser, latestCode, newUsername, password, sessionCookies } from './auth-support.ts'
import { collectPageErrors, launchBrowser, waitForHydration } from './browser.ts'

/**
 * The ways through the auth screens besides the straight one (auth-account.test.ts): an
 * unconfirmed sign-in, a forgotten password, deleting the account. Each test has its own
 * account and its own browser context (cookies).
 */
let server: TestServer
let browser: Browser
let context: BrowserContext

beforeAll(async () => {
  server = await startTestServer()
  browser = await launchBrowser()
})
beforeEach(async () => {
  context = await browser.newContext({ baseURL: server.url })
})
afterEach(async () => {
  await context?.close()
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** A new confirmed account (signed up and confirmed through the protocol); its username. */
async function account(): Promise<string> {
  const name = newUsername()
  await confirmedUser(server, name)
  return name
}

describe('the other ways through the screens', () => {
  test('signing in before confirming leads to the confirm screen with a fresh code', async () => {
    const name = newUsername()
    const address = `${name}@example.com`
    const tab = await context.newPage()
    try {
      await tab.goto('/auth/signup')
      await waitForHydration(tab)
      await tab.getByLabel('ユーザー名').fill(name)
      await tab.getByLabel('メールアドレス').fill(address)
      await tab.getByLabel('パスワード', { exact: true }).fill(password)
      await tab.getByRole('button', { name: '登録する' }).click()
      await tab.waitForURL(/\/auth\/confirm\?/)
      const firstCode = await latestCode(server, address)

      await tab.goto('/auth/signin')
      await waitForHydration(tab)
      await tab.getByLabel('ユーザー名またはメールアドレス').fill(name)
      await tab.getByLabel('パスワード', { exact: true }).fill(password)
      await tab.getByRole('button', { name: 'ログイン', exact: true }).click()
      await tab.waitForURL(/\/auth\/confirm\?.*from=signin/)
      await expect
        .poll(() => tab.locator('main').textContent())
        .toContain('登録がまだ完了していません')
      const code = await latestCode(server, address)
      expect(code).not.toBe(firstCode)
      await tab.getByLabel('確認コード（6桁）').fill(code)
      await tab.getByRole('button', { name: '登録を完了する' }).click()
      await tab.waitForURL(/\/auth\/signin\?/)
    } finally {
      await tab.close()
    }
  })

  test('a forgotten password is replaced with a mailed code, and the new one signs in', async () => {
    const email = `${await account()}@example.com`
    const tab = await context.newPage()
    const errorsHere = collectPageErrors(tab)
    try {
      await tab.goto('/auth/forgotPassword')
      await waitForHydration(tab)
      await tab.getByLabel('ユーザー名またはメールアドレス').fill(email)
      await tab.getByRole('button', { name: 'コードを送る' }).click()
      await tab.waitForURL(/\/auth\/forgotPasswordVerify\?/)
      const code = await latestCode(server, email)
      await tab.getByLabel('確認コード（6桁）').fill(code)
      await tab.getByLabel('新しいパスワード', { exact: true }).fill('Atarashii2#')
      await tab.getByLabel('新しいパスワード（確認用）').fill('Atarashii2#')
      await tab.getByRole('button', { name: 'パスワードを設定する' }).click()
      await tab.waitForURL(/\/auth\/signin\?.*reset=1/)
      await expect
        .poll(() => tab.locator('main').textContent())
        .toContain('新しいパスワードを設定しました')
      await tab.getByLabel('パスワード', { exact: true }).fill('Atarashii2#')
      await tab.getByRole('button', { name: 'ログイン', exact: true }).click()
      await tab.waitForURL(`${server.url}/`)
      await tab.locator('[data-user-menu]').waitFor()

      // Settings: change the password back, then sign out everywhere.
      await tab.goto('/settings')
      await waitForHydration(tab)
      await tab.getByLabel('現在のパスワード').fill('Atarashii2#')
      await tab.getByLabel('新しいパスワード', { exact: true }).fill(password)
      await tab.getByLabel('新しいパスワード（確認用）').fill(password)
      await tab.getByRole('button', { name: 'パスワードを変更する' }).click()
      await expect
        .poll(() => tab.locator('main').textContent())
        .toContain('パスワードを変更しました')
      await tab.getByRole('button', { name: 'すべての端末からログアウト' }).click()
      await tab.waitForURL(/\/auth\/signin\?signedOut=all/)
      expect(await sessionCookies(context)).toHaveLength(0)
      expect(errorsHere).toEqual([])
    } finally {
      await tab.close()
    }
  })

  test('deleting the account needs the username typed, then signs out for good', async () => {
    const username = await account()
    const tab = await context.newPage()
    try {
      await tab.goto('/auth/signin')
      await waitForHydration(tab)
      await tab.getByLabel('ユーザー名またはメールアドレス').fill(username)
      await tab.getByLabel('パスワード', { exact: true }).fill(password)
      await tab.getByRole('button', { name: 'ログイン', exact: true }).click()
      await tab.waitForURL(`${server.url}/`)
      await tab.goto('/settings')
      await waitForHydration(tab)
      await tab.getByRole('button', { name: 'アカウントを削除する…' }).click()
      const confirmField = tab.getByLabel(`確認のため、ユーザー名「${username}」を入力してください`)
      await confirmField.fill('someone_else')
      await tab.getByRole('button', { name: 'アカウントを完全に削除する' }).click()
      await expect.poll(() => confirmField.getAttribute('aria-invalid')).toBe('true')
      await confirmField.fill(username)
      await tab.getByRole('button', { name: 'アカウントを完全に削除する' }).click()
      await tab.waitForURL(/\/auth\/signin\?deleted=1/)
      expect(await sessionCookies(context)).toHaveLength(0)
      const profile = await fetch(`${server.url}/${username}`)
      expect(profile.status).toBe(404)
      await profile.text()
    } finally {
      await tab.close()
    }
  })
})
