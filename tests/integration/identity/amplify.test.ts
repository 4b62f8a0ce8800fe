import {
  GetTokensFromRefreshTokenCommand,
  GetUserCommand,
} from '@aws-sdk/client-cognito-identity-provider'
import {
  confirmSignUp,
  fetchAuthSession,
  fetchUserAttributes,
  getCurrentUser,
  signIn,
  signOut,
  signUp,
} from 'aws-amplify/auth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { CLIENT_ID, configureAmplify, latestCode, newAccount, sdkClient } from './support.ts'

// Amplify keeps global state (configuration, the signed-in user): this file is its own.
let server: TestServer
let storage = new Map<string, string>()

beforeAll(async () => {
  server = await startTestServer()
  storage = configureAmplify(server)
})
afterAll(async () => {
  await server?.close()
})

const storedRefreshToken = () =>
  [...storage.entries()].find(([key]) => key.endsWith('.refreshToken'))?.[1]

describe('aws-amplify v6 against the embedded user pool', { timeout: 120_000 }, () => {
  it('signs up, confirms, signs in, refreshes and signs out for good', async () => {
    const account = newAccount('amp')
    const signedUp = await signUp({
      username: account.username,
      password: account.password,
      options: { userAttributes: { email: account.email } },
    })
    expect(signedUp.isSignUpComplete).toBe(false)
    expect(signedUp.nextStep.signUpStep).toBe('CONFIRM_SIGN_UP')

    const confirmed = await confirmSignUp({
      username: account.username,
      confirmationCode: await latestCode(server, account.email),
    })
    expect(confirmed.isSignUpComplete).toBe(true)

    const signedIn = await signIn({ username: account.username, password: account.password })
    expect(signedIn).toMatchObject({ isSignedIn: true, nextStep: { signInStep: 'DONE' } })
    expect((await getCurrentUser()).username).toBe(account.username)
    const attributes = await fetchUserAttributes()
    expect(attributes).toMatchObject({ email: account.email, email_verified: 'true' })

    const first = await fetchAuthSession()
    const refreshed = await fetchAuthSession({ forceRefresh: true })
    const before = first.tokens?.accessToken.payload
    const after = refreshed.tokens?.accessToken.payload
    expect(after?.jti).not.toBe(before?.jti)
    expect(after?.origin_jti).toBe(before?.origin_jti)
    expect(refreshed.tokens?.idToken?.payload.email).toBe(account.email)

    const refreshToken = storedRefreshToken()
    const accessToken = refreshed.tokens?.accessToken.toString()
    expect(refreshToken).toBeTruthy()
    await signOut()
    expect(storedRefreshToken()).toBeUndefined()

    // Signing out revoked the session on the server, not only in Amplify's storage.
    const cognito = sdkClient(server)
    await expect(
      cognito.send(
        new GetTokensFromRefreshTokenCommand({ ClientId: CLIENT_ID, RefreshToken: refreshToken }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' })
    await expect(
      cognito.send(new GetUserCommand({ AccessToken: accessToken })),
    ).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Access Token has been revoked',
    })
    cognito.destroy()
  })

  it('signs in by email and reports a wrong password by its Cognito name', async () => {
    const account = newAccount('amq')
    await signUp({
      username: account.username,
      password: account.password,
      options: { userAttributes: { email: account.email } },
    })
    // Amplify turns UserNotConfirmedException into its next step.
    expect(await signIn({ username: account.username, password: account.password })).toMatchObject({
      isSignedIn: false,
      nextStep: { signInStep: 'CONFIRM_SIGN_UP' },
    })
    await confirmSignUp({
      username: account.username,
      confirmationCode: await latestCode(server, account.email),
    })
    await expect(
      signIn({ username: account.email, password: 'Wrong#Horse9' }),
    ).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    })
    const signedIn = await signIn({ username: account.email, password: account.password })
    expect(signedIn.isSignedIn).toBe(true)
    expect((await getCurrentUser()).username).toBe(account.username)
    await signOut()
  })
})
