import { randomBytes } from 'node:crypto'
import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { expect } from 'vitest'
import type { TestServer } from '#tests/support/test-server.ts'
import { collectPageErrors, waitForHydration } from './browser.ts'

/** What the auth files share: the password every account is made with, codes and cookies. */
export const password = 'Hajimete1!'
export const CLIENT_ID = 'techlabwebclient0000000000'

/** A username no other test has. */
export const newUsername = () => `e2e_${randomBytes(4).toString('hex')}`

export function userPool(target: TestServer) {
  return new CognitoIdentityProviderClient({
    region: 'ap-northeast-1',
    endpoint: `${target.url}/cognito-idp`,
    credentials: { accessKeyId: 'unused', secretAccessKey: 'unused' },
  })
}

/** The newest confirmation code sent to an address, from the development mailbox. */
export async function latestCode(target: TestServer, to: string): Promise<string> {
  // Polls: a screen may show before the request that mails a new code has been answered.
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await fetch(
      `${target.url}/dev/mailbox/messages.json?to=${encodeURIComponent(to)}`,
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
export async function sessionCookies(context: BrowserContext) {
  return (await context.cookies()).filter(
    (cookie) =>
      cookie.name.startsWith('CognitoIdentityServiceProvider.') &&
      !/\.(deviceKey|deviceGroupKey|randomPasswordKey)$/.test(cookie.name),
  )
}

/** Signs up and confirms an account through the protocol; returns its access token. */
export async function confirmedUser(target: TestServer, name: string): Promise<string> {
  const pool = userPool(target)
  const address = `${name}@example.com`
  await pool.send(
    new SignUpCommand({
      ClientId: CLIENT_ID,
      Username: name,
      Password: password,
      UserAttributes: [{ Name: 'email', Value: address }],
    }),
  )
  await pool.send(
    new ConfirmSignUpCommand({
      ClientId: CLIENT_ID,
      Username: name,
      ConfirmationCode: await latestCode(target, address),
    }),
  )
  const signedIn = await pool.send(
    new InitiateAuthCommand({
      ClientId: CLIENT_ID,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: name, PASSWORD: password },
    }),
  )
  return signedIn.AuthenticationResult?.AccessToken ?? ''
}

/** A new browser context on the sign-in screen of a server, hydrated; the page's errors. */
export async function signInScreen(browser: Browser, target: TestServer) {
  const tabContext = await browser.newContext({ baseURL: target.url })
  const tab = await tabContext.newPage()
  const errors = collectPageErrors(tab)
  await tab.goto('/auth/signin')
  await waitForHydration(tab)
  return { tabContext, tab, errors }
}

/** Fills in the sign-in screen's form for an account and sends it. */
export async function submitSignIn(tab: Page, name: string, secret = password): Promise<void> {
  await tab.getByLabel('ユーザー名またはメールアドレス').fill(name)
  await tab.getByLabel('パスワード', { exact: true }).fill(secret)
  await tab.getByRole('button', { name: 'ログイン', exact: true }).click()
}

/**
 * An account an administrator makes (AdminCreateUser with an administrator's access token): its
 * first sign-in must choose a new password.
 */
export async function adminCreatedUser(
  target: TestServer,
  adminToken: string,
  name: string,
  temporaryPassword: string,
): Promise<void> {
  const created = await fetch(`${target.url}/cognito-idp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'AWSCognitoIdentityProviderService.AdminCreateUser',
      authorization: `Bearer ${adminToken}`,
    },
    body: JSON.stringify({
      UserPoolId: 'ap-northeast-1_TechLabPool',
      Username: name,
      TemporaryPassword: temporaryPassword,
      MessageAction: 'SUPPRESS',
      UserAttributes: [{ Name: 'email', Value: `${name}@example.com` }],
    }),
  })
  expect(created.status).toBe(200)
}
