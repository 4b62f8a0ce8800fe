import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { confirmedUser, newUsername, signInScreen, submitSignIn } from './auth-support.ts'
import { launchBrowser, waitForHydration } from './browser.ts'
import { totpCode } from './totp.ts'

/** Authenticator-app MFA turned on from /settings, then asked for at the next sign-in. */
let server: TestServer
let browser: Browser

beforeAll(async () => {
  server = await startTestServer()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe('authenticator-app MFA, turned on in the settings', () => {
  test('the QR code sets it up, and the next sign-in asks for the code', async () => {
    const name = newUsername()
    await confirmedUser(server, name)
    const { tabContext, tab, errors: tabErrors } = await signInScreen(browser, server)
    try {
      await submitSignIn(tab, name)
      await tab.waitForURL(`${server.url}/`)

      await tab.goto('/settings#mfa')
      await waitForHydration(tab)
      await tab.getByRole('button', { name: '認証アプリを設定する' }).click()
      await tab.locator('img[alt*="QR"]').waitFor()
      await tab.getByText('QR コードを読み取れないとき').click()
      const secret = ((await tab.locator('#mfa [data-totp-secret]').textContent()) ?? '').replace(
        /\s/g,
        '',
      )
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/)
      await tab.getByLabel('6桁のコード').fill(totpCode(secret, server.clock.now()))
      await tab.getByRole('button', { name: '有効にする' }).click()
      await expect
        .poll(() => tab.locator('#mfa').textContent())
        .toContain('二段階認証を有効にしました')

      // Sign out, and in again: now the code is asked for.
      await tab.goto('/auth/signout')
      await waitForHydration(tab)
      await tab.getByRole('button', { name: 'ログアウト', exact: true }).click()
      await expect.poll(() => tab.locator('h1').textContent()).toBe('ログアウトしました')
      await tab.goto('/auth/signin')
      await waitForHydration(tab)
      await submitSignIn(tab, name)
      await expect.poll(() => tab.locator('h1').textContent()).toBe('認証アプリのコード')
      // A fresh time step, so the code is not the one used to set up.
      server.clock.advance(30_000)
      await tab.getByLabel('6桁のコード').fill(totpCode(secret, server.clock.now()))
      await tab.getByRole('button', { name: 'ログイン', exact: true }).click()
      await tab.waitForURL(`${server.url}/`)
      await tab.locator('[data-user-menu]').waitFor()
      expect(tabErrors).toEqual([])
    } finally {
      await tabContext.close()
    }
  }, 90_000)
})
