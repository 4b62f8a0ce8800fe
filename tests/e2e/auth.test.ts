import { randomBytes } from 'node:crypto'
import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { collectPageErrors, launchBrowser, waitForHydration } from './browser.ts'
import { answerPasswordWith } from './challenges.ts'
import { totpCode } from './totp.ts'

/**
 * The whole life of an account in Chromium, through the unmodified aws-amplify in the page
 * against the server's own user pool: sign up, read the code from the dev mailbox, confirm,
 * sign in, reload (the server renders the signed-in page from the cookies), sign out.
 */
let server: TestServer
let browser: Browser
let context: BrowserContext
let page: Page
let errors: string[]

const username = `e2e_${randomBytes(4).toString('hex')}`
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

/** The newest confirmation code sent to an address, from the development mailbox. */
async function latestCode(to: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await fetch(
      `${server.url}/dev/mailbox/messages.json?to=${encodeURIComponent(to)}`,
    )
    expect(response.status).toBe(200)
    const { messages } = (await response.json()) as { messages: { text: string }[] }
    const code = messages[0] && /\b(\d{6})\b/.exec(messages[0].text)?.[1]
    if (code) return code
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no code was mailed to ${to}`)
}

/**
 * Amplify's session cookies. Its device cookies (key, group key and secret of a remembered
 * device) are not a session: they outlive sign-out on purpose.
 */
async function sessionCookies() {
  return (await context.cookies()).filter(
    (cookie) =>
      cookie.name.startsWith('CognitoIdentityServiceProvider.') &&
      !/\.(deviceKey|deviceGroupKey|randomPasswordKey)$/.test(cookie.name),
  )
}

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
    const code = await latestCode(email)
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
    expect(await sessionCookies()).toHaveLength(0)

    await page.getByLabel('パスワード', { exact: true }).fill(password)
    await page.getByRole('button', { name: 'ログイン', exact: true }).click()
    await page.waitForURL(`${server.url}/`)
    await expect.poll(() => page.locator('[data-user-menu]').count()).toBe(1)
    expect(await page.locator('header').textContent()).toContain(username)
    expect(await page.locator('header').textContent()).not.toContain('無料で始める')

    const cookies = await sessionCookies()
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
    const refreshToken = (await sessionCookies()).find((cookie) =>
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
    expect(await sessionCookies()).toHaveLength(0)

    const home = await page.goto('/')
    const html = (await home?.text()) ?? ''
    expect(html).not.toContain('data-user-menu')
    expect(html).toContain('href="/auth/signin"')

    // Signing out revoked the refresh token: it can mint no new session.
    const pool = new CognitoIdentityProviderClient({
      region: 'ap-northeast-1',
      endpoint: `${server.url}/cognito-idp`,
      credentials: { accessKeyId: 'unused', secretAccessKey: 'unused' },
    })
    await expect(
      pool.send(
        new InitiateAuthCommand({
          ClientId: 'techlabwebclient0000000000',
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

describe('the other ways through the screens', () => {
  test('signing in before confirming leads to the confirm screen with a fresh code', async () => {
    const name = `e2e_${randomBytes(4).toString('hex')}`
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
      const firstCode = await latestCode(address)

      await tab.goto('/auth/signin')
      await waitForHydration(tab)
      await tab.getByLabel('ユーザー名またはメールアドレス').fill(name)
      await tab.getByLabel('パスワード', { exact: true }).fill(password)
      await tab.getByRole('button', { name: 'ログイン', exact: true }).click()
      await tab.waitForURL(/\/auth\/confirm\?.*from=signin/)
      await expect
        .poll(() => tab.locator('main').textContent())
        .toContain('登録がまだ完了していません')
      const code = await latestCode(address)
      expect(code).not.toBe(firstCode)
      await tab.getByLabel('確認コード（6桁）').fill(code)
      await tab.getByRole('button', { name: '登録を完了する' }).click()
      await tab.waitForURL(/\/auth\/signin\?/)
    } finally {
      await tab.close()
    }
  })

  test('a forgotten password is replaced with a mailed code, and the new one signs in', async () => {
    const tab = await context.newPage()
    const errorsHere = collectPageErrors(tab)
    try {
      await tab.goto('/auth/forgotPassword')
      await waitForHydration(tab)
      await tab.getByLabel('ユーザー名またはメールアドレス').fill(email)
      await tab.getByRole('button', { name: 'コードを送る' }).click()
      await tab.waitForURL(/\/auth\/forgotPasswordVerify\?/)
      const code = await latestCode(email)
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
      expect(await sessionCookies()).toHaveLength(0)
      expect(errorsHere).toEqual([])
    } finally {
      await tab.close()
    }
  })

  test('deleting the account needs the username typed, then signs out for good', async () => {
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
      expect(await sessionCookies()).toHaveLength(0)
      const profile = await fetch(`${server.url}/${username}`)
      expect(profile.status).toBe(404)
      await profile.text()
    } finally {
      await tab.close()
    }
  })
})

describe('the second step of a sign-in', () => {
  let admins: TestServer
  beforeAll(async () => {
    admins = await startTestServer({ ADMIN_USERS: 'boss' })
  })
  afterAll(async () => {
    await admins?.close()
  })

  async function confirmedUser(target: TestServer, name: string) {
    const { SignUpCommand, ConfirmSignUpCommand } = await import(
      '@aws-sdk/client-cognito-identity-provider'
    )
    const pool = new CognitoIdentityProviderClient({
      region: 'ap-northeast-1',
      endpoint: `${target.url}/cognito-idp`,
      credentials: { accessKeyId: 'unused', secretAccessKey: 'unused' },
    })
    const address = `${name}@example.com`
    await pool.send(
      new SignUpCommand({
        ClientId: 'techlabwebclient0000000000',
        Username: name,
        Password: password,
        UserAttributes: [{ Name: 'email', Value: address }],
      }),
    )
    const mail = await fetch(`${target.url}/dev/mailbox/messages.json?to=${address}`)
    const { messages } = (await mail.json()) as { messages: { text: string }[] }
    await pool.send(
      new ConfirmSignUpCommand({
        ClientId: 'techlabwebclient0000000000',
        Username: name,
        ConfirmationCode: /\b(\d{6})\b/.exec(messages[0]?.text ?? '')?.[1],
      }),
    )
    const signedIn = await pool.send(
      new InitiateAuthCommand({
        ClientId: 'techlabwebclient0000000000',
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: name, PASSWORD: password },
      }),
    )
    return signedIn.AuthenticationResult?.AccessToken ?? ''
  }

  async function signInScreen(target: TestServer) {
    const tabContext = await browser.newContext({ baseURL: target.url })
    const tab = await tabContext.newPage()
    await tab.goto('/auth/signin')
    await waitForHydration(tab)
    return { tabContext, tab }
  }

  test('an account an administrator made asks for a new password first', async () => {
    const adminToken = await confirmedUser(admins, 'boss')
    const created = await fetch(`${admins.url}/cognito-idp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.AdminCreateUser',
        authorization: `Bearer ${adminToken}`,
      },
      body: JSON.stringify({
        UserPoolId: 'ap-northeast-1_TechLabPool',
        Username: 'newcomer',
        TemporaryPassword: 'Karino-Pass1',
        MessageAction: 'SUPPRESS',
        UserAttributes: [{ Name: 'email', Value: 'newcomer@example.com' }],
      }),
    })
    expect(created.status).toBe(200)

    const { tabContext, tab } = await signInScreen(admins)
    try {
      const tabErrors = collectPageErrors(tab)
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
    const { tabContext, tab } = await signInScreen(admins)
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
    const { tabContext, tab } = await signInScreen(admins)
    try {
      await answerPasswordWith(tab, {
        ChallengeName: 'MFA_SETUP',
        MFAS_CAN_SETUP: ['SOFTWARE_TOKEN_MFA'],
      })
      await tab.getByLabel('ユーザー名またはメールアドレス').fill('mfa_user')
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

describe('authenticator-app MFA, turned on in the settings', () => {
  test('the QR code sets it up, and the next sign-in asks for the code', async () => {
    const name = `e2e_${randomBytes(4).toString('hex')}`
    const address = `${name}@example.com`
    const tabContext = await browser.newContext({ baseURL: server.url })
    try {
      const tab = await tabContext.newPage()
      const tabErrors = collectPageErrors(tab)
      await tab.goto('/auth/signup')
      await waitForHydration(tab)
      await tab.getByLabel('ユーザー名').fill(name)
      await tab.getByLabel('メールアドレス').fill(address)
      await tab.getByLabel('パスワード', { exact: true }).fill(password)
      await tab.getByRole('button', { name: '登録する' }).click()
      await tab.waitForURL(/\/auth\/confirm\?/)
      await tab.getByLabel('確認コード（6桁）').fill(await latestCode(address))
      await tab.getByRole('button', { name: '登録を完了する' }).click()
      await tab.waitForURL(/\/auth\/signin\?/)
      await tab.getByLabel('パスワード', { exact: true }).fill(password)
      await tab.getByRole('button', { name: 'ログイン', exact: true }).click()
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
      await tab.getByLabel('ユーザー名またはメールアドレス').fill(name)
      await tab.getByLabel('パスワード', { exact: true }).fill(password)
      await tab.getByRole('button', { name: 'ログイン', exact: true }).click()
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

describe('a session whose access token expired while the browser was away', () => {
  let shortLived: TestServer
  beforeAll(async () => {
    shortLived = await startTestServer({ ACCESS_TOKEN_TTL_S: '3', ID_TOKEN_TTL_S: '3' })
  })
  afterAll(async () => {
    await shortLived?.close()
  })

  test('is refreshed in the browser, and the page then shows the user again', async () => {
    const name = `e2e_${randomBytes(4).toString('hex')}`
    const address = `${name}@example.com`
    const pool = new CognitoIdentityProviderClient({
      region: 'ap-northeast-1',
      endpoint: `${shortLived.url}/cognito-idp`,
      credentials: { accessKeyId: 'unused', secretAccessKey: 'unused' },
    })
    const { SignUpCommand, ConfirmSignUpCommand } = await import(
      '@aws-sdk/client-cognito-identity-provider'
    )
    await pool.send(
      new SignUpCommand({
        ClientId: 'techlabwebclient0000000000',
        Username: name,
        Password: password,
        UserAttributes: [{ Name: 'email', Value: address }],
      }),
    )
    const mail = await fetch(`${shortLived.url}/dev/mailbox/messages.json?to=${address}`)
    const { messages } = (await mail.json()) as { messages: { text: string }[] }
    await pool.send(
      new ConfirmSignUpCommand({
        ClientId: 'techlabwebclient0000000000',
        Username: name,
        ConfirmationCode: /\b(\d{6})\b/.exec(messages[0]?.text ?? '')?.[1],
      }),
    )

    const away = await browser.newContext({ baseURL: shortLived.url })
    try {
      const tab = await away.newPage()
      const tabErrors = collectPageErrors(tab)
      await tab.goto('/auth/signin')
      await waitForHydration(tab)
      await tab.getByLabel('ユーザー名またはメールアドレス').fill(name)
      await tab.getByLabel('パスワード', { exact: true }).fill(password)
      await tab.getByRole('button', { name: 'ログイン', exact: true }).click()
      await tab.waitForURL(`${shortLived.url}/`)
      await tab.close()

      // The browser is away longer than the access token lives.
      shortLived.clock.advance(3500)
      const back = await away.newPage()
      const response = await back.goto('/')
      expect(await response?.text()).not.toContain('data-user-menu')
      await waitForHydration(back)
      await back.locator('[data-user-menu]').waitFor({ timeout: 15_000 })
      expect(await back.locator('header').textContent()).toContain(name)
      expect(tabErrors).toEqual([])
    } finally {
      await away.close()
    }
  })
})
