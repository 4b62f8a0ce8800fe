import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider'
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { adminCreatedUser } from './auth-support.ts'
import { collectPageErrors, launchBrowser, waitForHydration } from './browser.ts'
import { answerPasswordWith, type FakeChallenge } from './challenges.ts'

/**
 * Every auth screen and the settings page, light and dark, phone and desktop, for a person
 * to look at (outside the repository, never committed). Each must fit the screen's width.
 */
const SHOTS_DIRECTORY = process.env.E2E_SHOTS_DIR ?? '/tmp/e2e-shots'
const CLIENT_ID = 'techlabwebclient0000000000'

const VIEWPORTS: Record<string, BrowserContextOptions> = {
  '1280-light': { viewport: { width: 1280, height: 900 }, colorScheme: 'light' },
  '1280-dark': { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' },
  '390-light': {
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    colorScheme: 'light',
  },
  '390-dark': {
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    colorScheme: 'dark',
  },
}

type Shot = {
  name: string
  path: string
  signedIn?: boolean
  /** What to do on the page before the picture (show errors, open a menu). */
  prepare?: (page: Page) => Promise<void>
}

/** The sign-in screen's second step: a real password, then the challenge under test. */
function challengeShot(name: string, heading: string, challenge?: FakeChallenge): Shot {
  return {
    name,
    path: '/auth/signin',
    prepare: async (page) => {
      if (challenge) await answerPasswordWith(page, challenge)
      await page
        .getByLabel('ユーザー名またはメールアドレス')
        .fill(challenge ? 'hana_dev' : 'kenta_new')
      await page
        .getByLabel('パスワード', { exact: true })
        .fill(challenge ? 'Hajimete1!' : TEMPORARY_PASSWORD)
      await page.getByRole('button', { name: 'ログイン', exact: true }).click()
      await page.locator('h1', { hasText: heading }).waitFor()
      if (challenge?.ChallengeName === 'MFA_SETUP') await page.locator('img[alt*="QR"]').waitFor()
    },
  }
}

const TEMPORARY_PASSWORD = 'Karino-Pass1'

const SHOTS: Shot[] = [
  { name: 'signin', path: '/auth/signin' },
  {
    name: 'signin-errors',
    path: '/auth/signin?confirmed=1&username=hana',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'ログイン', exact: true }).click()
      await page.locator('[aria-invalid="true"]').first().waitFor()
    },
  },
  challengeShot('signin-totp-code', '認証アプリのコード', { ChallengeName: 'SOFTWARE_TOKEN_MFA' }),
  challengeShot('signin-mfa-selection', '確認の方法を選んでください', {
    ChallengeName: 'SELECT_MFA_TYPE',
    MFAS_CAN_CHOOSE: ['SMS_MFA', 'SOFTWARE_TOKEN_MFA'],
  }),
  challengeShot('signin-totp-setup', '認証アプリの登録', {
    ChallengeName: 'MFA_SETUP',
    MFAS_CAN_SETUP: ['SOFTWARE_TOKEN_MFA'],
  }),
  challengeShot('signin-new-password', '新しいパスワードの設定'),
  { name: 'signup', path: '/auth/signup' },
  {
    name: 'signup-errors',
    path: '/auth/signup',
    prepare: async (page) => {
      await page.getByLabel('ユーザー名').fill('Hana!')
      await page.getByLabel('パスワード', { exact: true }).fill('hajime1')
      await page.getByRole('button', { name: '登録する' }).click()
      await page.locator('[aria-invalid="true"]').first().waitFor()
    },
  },
  { name: 'confirm', path: '/auth/confirm?username=hana_dev&destination=h***%40e***.com' },
  { name: 'confirm-no-username', path: '/auth/confirm' },
  { name: 'forgot-password', path: '/auth/forgotPassword' },
  {
    name: 'forgot-password-verify',
    path: '/auth/forgotPasswordVerify?username=hana_dev&destination=h***%40e***.com',
  },
  { name: 'signout-guest', path: '/auth/signout' },
  { name: 'signout', path: '/auth/signout', signedIn: true },
  { name: 'setup-username', path: '/auth/setupUsername' },
  { name: 'callback-google', path: '/auth/callback_google' },
  { name: 'settings', path: '/settings', signedIn: true },
  {
    name: 'settings-mfa-setup',
    path: '/settings#mfa',
    signedIn: true,
    prepare: async (page) => {
      await page.getByRole('button', { name: '認証アプリを設定する' }).click()
      await page.locator('img[alt*="QR"]').waitFor()
      await page.locator('#mfa').scrollIntoViewIfNeeded()
    },
  },
  {
    name: 'home-signed-in-menu',
    path: '/',
    signedIn: true,
    prepare: async (page) => {
      await page.locator('[data-user-menu] summary').click()
    },
  },
]

let server: TestServer
let browser: Browser
let sessionCookies: { name: string; value: string; url: string }[]

beforeAll(async () => {
  server = await startTestServer({ ADMIN_USERS: 'hana_dev' })
  browser = await launchBrowser()
  await mkdir(SHOTS_DIRECTORY, { recursive: true })
  sessionCookies = await signIn('hana_dev')
  // An account made by an administrator: its first sign-in must choose a new password.
  const adminToken = sessionCookies.find((cookie) => cookie.name.endsWith('.accessToken'))?.value
  await adminCreatedUser(server, adminToken ?? '', 'kenta_new', TEMPORARY_PASSWORD)
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** A confirmed, signed-in user, as the cookies Amplify would have stored. */
async function signIn(username: string) {
  const client = new CognitoIdentityProviderClient({
    region: 'ap-northeast-1',
    endpoint: `${server.url}/cognito-idp`,
    credentials: { accessKeyId: 'unused', secretAccessKey: 'unused' },
  })
  const email = `${username}@example.com`
  const password = 'Hajimete1!'
  await client.send(
    new SignUpCommand({
      ClientId: CLIENT_ID,
      Username: username,
      Password: password,
      UserAttributes: [{ Name: 'email', Value: email }],
    }),
  )
  const mail = await fetch(`${server.url}/dev/mailbox/messages.json?to=${email}`)
  const { messages } = (await mail.json()) as { messages: { text: string }[] }
  const code = /\b(\d{6})\b/.exec(messages[0]?.text ?? '')?.[1]
  await client.send(
    new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: username, ConfirmationCode: code }),
  )
  const { AuthenticationResult: tokens } = await client.send(
    new InitiateAuthCommand({
      ClientId: CLIENT_ID,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: username, PASSWORD: password },
    }),
  )
  const base = `CognitoIdentityServiceProvider.${CLIENT_ID}`
  return [
    [`${base}.LastAuthUser`, username],
    [`${base}.${username}.accessToken`, tokens?.AccessToken ?? ''],
    [`${base}.${username}.idToken`, tokens?.IdToken ?? ''],
    [`${base}.${username}.refreshToken`, tokens?.RefreshToken ?? ''],
  ].map(([name, value]) => ({ name: name as string, value: value as string, url: server.url }))
}

describe('auth screens', () => {
  for (const shot of SHOTS) {
    for (const [viewport, options] of Object.entries(VIEWPORTS)) {
      test(`${shot.name} ${viewport}`, async () => {
        const context = await browser.newContext({ baseURL: server.url, ...options })
        try {
          if (shot.signedIn) await context.addCookies(sessionCookies)
          const page = await context.newPage()
          const errors = collectPageErrors(page)
          const response = await page.goto(shot.path)
          expect(response?.status()).toBe(200)
          await waitForHydration(page)
          await shot.prepare?.(page)
          await page.evaluate(() => document.fonts.ready.then(() => undefined))
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          )
          expect(overflow, 'the page scrolls sideways').toBe(0)
          await page.screenshot({
            path: path.join(SHOTS_DIRECTORY, `auth-${shot.name}-${viewport}.png`),
            fullPage: true,
            animations: 'disabled',
          })
          expect(errors).toEqual([])
        } finally {
          await context.close()
        }
      })
    }
  }
})
