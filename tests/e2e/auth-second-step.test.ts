import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { adminCreatedUser, confirmedUser, password, signInScreen } from './auth-support.ts'
import { launchBrowser } from './browser.ts'
import { answerPasswordWith } from './challenges.ts'

/**
 * The screens after the password: a new password for an account an administrator made, an
 * authenticator-app code, and setting an app up. The challenges the server does not send
 * unprompted are answered in the page's place (challenges.ts); each test has its own account.
 */
let admins: TestServer
let browser: Browser

beforeAll(async () => {
  admins = await startTestServer({ ADMIN_USERS: 'boss' })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await admins?.close()
})

describe('the second step of a sign-in', () => {
  test('an account an administrator made asks for a new password first', async () => {
    const adminToken = await confirmedUser(admins, 'boss')
    await adminCreatedUser(admins, adminToken, 'newcomer', 'Karino-Pass1')

    const { tabContext, tab, errors: tabErrors } = await signInScreen(browser, admins)
    try {
      await tab.getByLabel('ユーザー名またはメールアドレス').fill('newcomer')
      await tab.getByLabel('パスワード', { exact: true }).fill('Karino-Pass1')
      await tab.getByRole('button', { name: 'ログイン', exact: true }).click()
      await expect.poll(() => tab.locator('h1').textContent()).toBe('新しいパスワードの設定')

      await tab.getByLabel('新しいパスワード', { exact: true }).fill('Jibun-no-Pass2')
      await tab.getByLabel('新しいパスワード（確認用）').fill('Jibun-no-Pass3')
      await tab.getByRole('button', { name: 'パスワードを設定してログイン' }).click()
      const confirmation = tab.getByLabel('新しいパスワード（確認用）')
      await expect.poll(() => confirmation.getAttribute('aria-invalid')).toBe('true')

      await confirmation.fill('Jibun-no-Pass2')
      await tab.getByRole('button', { name: 'パスワードを設定してログイン' }).click()
      await tab.waitForURL(`${admins.url}/`)
      await tab.locator('[data-user-menu]').waitFor()
      expect(await tab.locator('header').textContent()).toContain('newcomer')
      expect(tabErrors).toEqual([])
    } finally {
      await tabContext.close()
    }
  })

  test('an authenticator-app code is asked for on its own screen, and a wrong one refused', async () => {
    await confirmedUser(admins, 'mfa_user')
    const { tabContext, tab } = await signInScreen(browser, admins)
    try {
      await answerPasswordWith(tab, { ChallengeName: 'SOFTWARE_TOKEN_MFA' })
      await tab.getByLabel('ユーザー名またはメールアドレス').fill('mfa_user')
      await tab.getByLabel('パスワード', { exact: true }).fill(password)
      await tab.getByRole('button', { name: 'ログイン', exact: true }).click()
      await expect.poll(() => tab.locator('h1').textContent()).toBe('認証アプリのコード')
      const code = tab.getByLabel('6桁のコード')
      expect(await code.getAttribute('autocomplete')).toBe('one-time-code')
      expect(await code.getAttribute('inputmode')).toBe('numeric')

      await code.fill('12345')
      await tab.getByRole('button', { name: 'ログイン', exact: true }).click()
      await expect.poll(() => code.getAttribute('aria-invalid')).toBe('true')
      expect(await tab.textContent('main')).toContain('6桁の数字')

      await code.fill('１２３４５６')
      await tab.getByRole('button', { name: 'ログイン', exact: true }).click()
      await expect.poll(() => tab.textContent('main')).toContain('コードが正しくありません')
      expect(await tab.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('code')
    } finally {
      await tabContext.close()
    }
  })

  test('setting up an authenticator app during sign-in shows a QR code and the key', async () => {
    await confirmedUser(admins, 'mfa_setup')
    const { tabContext, tab } = await signInScreen(browser, admins)
    try {
      await answerPasswordWith(tab, {
        ChallengeName: 'MFA_SETUP',
        MFAS_CAN_SETUP: ['SOFTWARE_TOKEN_MFA'],
      })
      await tab.getByLabel('ユーザー名またはメールアドレス').fill('mfa_setup')
      await tab.getByLabel('パスワード', { exact: true }).fill(password)
      await tab.getByRole('button', { name: 'ログイン', exact: true }).click()
      await expect.poll(() => tab.locator('h1').textContent()).toBe('認証アプリの登録')
      const qr = tab.locator('img[alt*="QR"]')
      await qr.waitFor()
      expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/)
      await tab.getByText('QR コードを読み取れないとき').click()
      expect(await tab.textContent('main')).toContain('JBSW Y3DP')
    } finally {
      await tabContext.close()
    }
  })
})
