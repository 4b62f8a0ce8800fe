import { randomBytes } from 'node:crypto'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { CLIENT_ID, call, registerUser } from '#tests/integration/identity/support.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { collectPageErrors, launchBrowser, waitForHydration } from './browser.ts'
import { totpCode } from './totp.ts'

/**
 * Remembered devices in Chromium, through the unmodified aws-amplify in the page: the sign-in
 * asks for the authenticator-app code, /settings remembers this browser, the next sign-in
 * skips the code; another device is forgotten from the list, then this one (which signs out).
 */
let server: TestServer
let browser: Browser
let context: BrowserContext
let page: Page
let errors: string[]

const username = `dev_${randomBytes(4).toString('hex')}`
const email = `${username}@example.com`
const password = 'Hajimete1!'

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

/** A call of the JSON protocol that must succeed. */
async function pool(operation: string, body: object) {
  const answer = await call(server, operation, body)
  if (answer.status !== 200) throw new Error(`${operation}: ${JSON.stringify(answer.body)}`)
  return answer.body
}

/**
 * An account made over the protocol, signed in once on another device (confirmed there as
 * "Other laptop") before an authenticator app was set up; returns the app's secret and that
 * other device's access token.
 */
async function accountWithTotp(): Promise<{ secret: string; otherDeviceToken: string }> {
  await registerUser(server, { username, email, password })
  const elsewhere = (
    await pool('InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: CLIENT_ID,
      AuthParameters: { USERNAME: username, PASSWORD: password },
    })
  ).AuthenticationResult as { AccessToken: string; NewDeviceMetadata: { DeviceKey: string } }
  const { AccessToken } = elsewhere
  await pool('ConfirmDevice', {
    AccessToken,
    DeviceKey: elsewhere.NewDeviceMetadata.DeviceKey,
    DeviceName: 'Other laptop',
    DeviceSecretVerifierConfig: {
      Salt: randomBytes(16).toString('base64'),
      PasswordVerifier: randomBytes(383).toString('base64'),
    },
  })
  const { SecretCode } = (await pool('AssociateSoftwareToken', { AccessToken })) as {
    SecretCode: string
  }
  await pool('VerifySoftwareToken', {
    AccessToken,
    UserCode: totpCode(SecretCode, server.clock.now()),
  })
  await pool('SetUserMFAPreference', {
    AccessToken,
    SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
  })
  return { secret: SecretCode, otherDeviceToken: AccessToken }
}

async function signInOnScreen() {
  await page.goto('/auth/signin')
  await waitForHydration(page)
  await page.getByLabel('ユーザー名またはメールアドレス').fill(username)
  await page.getByLabel('パスワード', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'ログイン', exact: true }).click()
}

const deviceList = () => page.getByRole('list', { name: 'ログインに使ったデバイス' })

describe('remembered devices on /settings', () => {
  test('remembering this browser skips the code; forgetting devices removes them', async () => {
    const { secret, otherDeviceToken } = await accountWithTotp()

    await signInOnScreen()
    await expect.poll(() => page.locator('h1').textContent()).toBe('認証アプリのコード')
    // The next time step after the code that set the app up (each step's code is used once).
    server.clock.advance(30_000)
    await page.getByLabel('6桁のコード').fill(totpCode(secret, server.clock.now()))
    await page.getByRole('button', { name: 'ログイン', exact: true }).click()
    await page.waitForURL(`${server.url}/`)

    await page.goto('/settings#devices')
    await waitForHydration(page)
    const section = page.locator('#devices')
    await expect.poll(() => deviceList().getByRole('listitem').count()).toBe(2)
    // This browser first, marked, not yet remembered ("user opt-in").
    const thisDevice = deviceList().getByRole('listitem').first()
    expect(await thisDevice.textContent()).toContain('このデバイス')
    expect(await thisDevice.textContent()).toContain('記憶していません')
    expect(await deviceList().textContent()).toContain('Other laptop')
    await section.getByRole('button', { name: 'このデバイスを記憶する' }).click()
    await expect.poll(() => section.textContent()).toContain('このデバイスを記憶しました')
    expect(await thisDevice.textContent()).toContain('記憶済み')

    // Signed out and in again: the remembered browser is not asked for the code.
    await page.goto('/auth/signout')
    await waitForHydration(page)
    await page.getByRole('button', { name: 'ログアウト', exact: true }).click()
    await expect.poll(() => page.locator('h1').textContent()).toBe('ログアウトしました')
    await signInOnScreen()
    await page.waitForURL(`${server.url}/`)
    await page.locator('[data-user-menu]').waitFor()

    await page.goto('/settings#devices')
    await waitForHydration(page)
    await expect.poll(() => deviceList().getByRole('listitem').count()).toBe(2)
    await page.getByRole('button', { name: '「Other laptop」を削除' }).click()
    await expect.poll(() => section.textContent()).toContain('「Other laptop」を削除しました')
    expect(await deviceList().getByRole('listitem').count()).toBe(1)
    // Its session ended with it.
    const ended = await call(server, 'GetUser', { AccessToken: otherDeviceToken })
    expect(ended.status).toBe(400)

    // Forgetting this browser signs it out.
    await section.getByRole('button', { name: '削除してログアウト' }).click()
    await page.waitForURL(/\/auth\/signin\?signedOut=device/)
    // The address changes as the navigation starts; the sign-in page renders once it loads.
    await expect
      .poll(() => page.textContent('main'))
      .toContain('このデバイスを記憶から削除し、ログアウトしました')
    const settings = await page.goto('/settings')
    expect(new URL(page.url()).pathname).toBe('/auth/signin')
    expect(settings?.status()).toBe(200)
    expect(errors).toEqual([])
  }, 120_000)
})
