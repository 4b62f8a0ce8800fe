import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider'
import { expect } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { subOf } from './realtime.ts'
import type { TestServer } from './test-server.ts'

/** Any running server of the site: a test server, or one in a process of its own. */
type Site = Pick<TestServer, 'url'>

/** The web app's client of the embedded user pool (the test server's default settings). */
export const CLIENT_ID = 'techlabwebclient0000000000'
const PASSWORD = 'Hajimete1!'

export function userPool(target: Site) {
  return new CognitoIdentityProviderClient({
    region: 'ap-northeast-1',
    endpoint: `${target.url}/cognito-idp`,
    credentials: { accessKeyId: 'unused', secretAccessKey: 'unused' },
  })
}

/** Signs up, confirms with the mailed code and signs in; returns the tokens. */
export async function signedInUser(target: Site, username: string) {
  const client = userPool(target)
  const email = `${username}@example.com`
  await client.send(
    new SignUpCommand({
      ClientId: CLIENT_ID,
      Username: username,
      Password: PASSWORD,
      UserAttributes: [{ Name: 'email', Value: email }],
    }),
  )
  const mailbox = await fetch(
    `${target.url}/dev/mailbox/messages.json?to=${encodeURIComponent(email)}`,
  )
  const { messages } = (await mailbox.json()) as { messages: { text: string }[] }
  const code = /\b(\d{6})\b/.exec(messages[0]?.text ?? '')?.[1]
  expect(code).toBeDefined()
  await client.send(
    new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: username, ConfirmationCode: code }),
  )
  return { email, ...(await passwordSignIn(target, username)) }
}

/** Signs a user of `signedInUser` in with the password; returns the tokens. */
async function passwordSignIn(target: Site, username: string) {
  const signIn = await userPool(target).send(
    new InitiateAuthCommand({
      ClientId: CLIENT_ID,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: username, PASSWORD },
    }),
  )
  const result = signIn.AuthenticationResult
  if (!result?.AccessToken || !result.IdToken) throw new Error('sign-in gave no tokens')
  return {
    accessToken: result.AccessToken,
    idToken: result.IdToken,
    refreshToken: result.RefreshToken,
  }
}

/**
 * A user of `signedInUser` signing in again with the password (after the test moved the clock
 * past their tokens' lifetime): their new session as the browser's Cookie header.
 */
export async function signInAgainCookie(target: Site, username: string): Promise<string> {
  return amplifyCookieHeader(CLIENT_ID, username, await passwordSignIn(target, username))
}

/** A new user's session as the browser's Cookie header (Amplify's cookies for the web client). */
export async function signedInCookie(target: Site, username: string): Promise<string> {
  return amplifyCookieHeader(CLIENT_ID, username, await signedInUser(target, username))
}

/** A user of a test: their name, session Cookie header, `sub` and access token. */
export type SignedInMember = { username: string; cookie: string; id: string; accessToken: string }

let people = 0

/**
 * A new signed-in user whose name no other test of this file has, so each test sets up its
 * own state (its drafts, lists and notifications are its own): `prefix` plus a number. `id` is
 * the user's `sub`, as admin routes name users.
 */
export async function newSignedInUser(target: Site, prefix: string): Promise<SignedInMember> {
  people += 1
  return signedInMember(target, `${prefix}_${people}`)
}

/** A new signed-in user of exactly this name (one the server's settings name, as an admin). */
export async function signedInMember(target: Site, username: string): Promise<SignedInMember> {
  const tokens = await signedInUser(target, username)
  return {
    username,
    cookie: amplifyCookieHeader(CLIENT_ID, username, tokens),
    id: subOf(tokens.accessToken),
    accessToken: tokens.accessToken,
  }
}
