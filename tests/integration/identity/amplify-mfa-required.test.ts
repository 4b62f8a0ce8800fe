import { confirmSignIn, signIn, signOut } from 'aws-amplify/auth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { configureAmplify, nextTotpCode, registerUser } from './support.ts'

// Amplify keeps global state: one file per configuration. Here the pool requires MFA.
let server: TestServer

beforeAll(async () => {
  server = await startTestServer({ USER_POOL_MFA: 'on' })
  configureAmplify(server)
})
afterAll(async () => {
  await server?.close()
})

describe('aws-amplify v6 when the pool requires MFA', { timeout: 180_000 }, () => {
  it('sets up an authenticator app during the first sign-in (MFA_SETUP)', async () => {
    const account = await registerUser(server)
    const setup = await signIn({ username: account.username, password: account.password })
    if (setup.nextStep.signInStep !== 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP') {
      throw new Error(JSON.stringify(setup.nextStep))
    }
    const secret = setup.nextStep.totpSetupDetails.sharedSecret
    const done = await confirmSignIn({ challengeResponse: nextTotpCode(secret, server.clock) })
    expect(done).toMatchObject({ isSignedIn: true, nextStep: { signInStep: 'DONE' } })
    await signOut()

    const next = await signIn({ username: account.username, password: account.password })
    expect(next.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE')
    expect(
      (await confirmSignIn({ challengeResponse: nextTotpCode(secret, server.clock) })).isSignedIn,
    ).toBe(true)
    await signOut()
  })
})
