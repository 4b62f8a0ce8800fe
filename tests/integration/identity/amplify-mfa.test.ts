import {
  confirmSignIn,
  fetchMFAPreference,
  setUpTOTP,
  signIn,
  signOut,
  updateMFAPreference,
  verifyTOTPSetup,
} from 'aws-amplify/auth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import {
  configureAmplify,
  latestCode,
  nextTotpCode,
  registerUser,
  wrongTotpCode,
} from './support.ts'

// Amplify keeps global state (configuration, the signed-in user): this file is its own.
let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
  configureAmplify(server)
})
afterAll(async () => {
  await server?.close()
})

describe('aws-amplify v6 MFA against the embedded user pool', { timeout: 180_000 }, () => {
  it('sets up TOTP, signs in with its code, then chooses between TOTP and the mailed code', async () => {
    const account = await registerUser(server)
    expect(await signIn({ username: account.username, password: account.password })).toMatchObject({
      isSignedIn: true,
    })

    const details = await setUpTOTP()
    const secret = details.sharedSecret
    expect(details.getSetupUri('TechLab').toString()).toContain(`secret=${secret}`)
    await verifyTOTPSetup({ code: nextTotpCode(secret, server.clock) })
    await updateMFAPreference({ totp: 'PREFERRED' })
    expect(await fetchMFAPreference()).toEqual({ enabled: ['TOTP'], preferred: 'TOTP' })
    await signOut()

    const first = await signIn({ username: account.username, password: account.password })
    expect(first.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE')
    await expect(
      confirmSignIn({ challengeResponse: wrongTotpCode(secret, server.clock) }),
    ).rejects.toMatchObject({ name: 'CodeMismatchException' })
    // The same sign-in continues after a mistyped code.
    const done = await confirmSignIn({ challengeResponse: nextTotpCode(secret, server.clock) })
    expect(done).toMatchObject({ isSignedIn: true, nextStep: { signInStep: 'DONE' } })

    await updateMFAPreference({ sms: 'ENABLED', totp: 'NOT_PREFERRED' })
    expect(await fetchMFAPreference()).toEqual({ enabled: ['SMS', 'TOTP'] })
    await signOut()

    const select = await signIn({ username: account.username, password: account.password })
    expect(select.nextStep).toMatchObject({
      signInStep: 'CONTINUE_SIGN_IN_WITH_MFA_SELECTION',
      allowedMFATypes: ['SMS', 'TOTP'],
    })
    const sms = await confirmSignIn({ challengeResponse: 'SMS' })
    expect(sms.nextStep).toMatchObject({
      signInStep: 'CONFIRM_SIGN_IN_WITH_SMS_CODE',
      codeDeliveryDetails: { deliveryMedium: 'EMAIL' },
    })
    const viaMail = await confirmSignIn({
      challengeResponse: await latestCode(server, account.email),
    })
    expect(viaMail.isSignedIn).toBe(true)

    await updateMFAPreference({ sms: 'DISABLED', totp: 'DISABLED' })
    expect(await fetchMFAPreference()).toEqual({})
    await signOut()
  })

  it('signs in by an emailed code (CUSTOM_WITHOUT_SRP), asked again after a wrong one', async () => {
    const account = await registerUser(server)
    const started = await signIn({
      username: account.email,
      options: { authFlowType: 'CUSTOM_WITHOUT_SRP' },
    })
    expect(started.nextStep).toMatchObject({
      signInStep: 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE',
      additionalInfo: { USERNAME: account.username },
    })
    const code = await latestCode(server, account.email)
    const wrong = await confirmSignIn({
      challengeResponse: code === '000000' ? '111111' : '000000',
    })
    expect(wrong.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE')
    const done = await confirmSignIn({ challengeResponse: code })
    expect(done).toMatchObject({ isSignedIn: true, nextStep: { signInStep: 'DONE' } })
    await signOut()
  })
})
