import {
  confirmSignIn,
  fetchAuthSession,
  fetchDevices,
  forgetDevice,
  rememberDevice,
  setUpTOTP,
  signIn,
  signOut,
  updateMFAPreference,
  verifyTOTPSetup,
} from 'aws-amplify/auth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { call, configureAmplify, nextTotpCode, registerUser } from './support.ts'

// Amplify keeps global state (configuration, the signed-in user): this file is its own.
let server: TestServer
let storage: Map<string, string>

beforeAll(async () => {
  server = await startTestServer()
  storage = configureAmplify(server)
})
afterAll(async () => {
  await server?.close()
})

/** The device key Amplify stored after confirming its device (it keeps it across sign-outs). */
function storedDeviceKey(): string | undefined {
  for (const [key, value] of storage) if (key.endsWith('.deviceKey')) return value
  return undefined
}

async function currentDeviceClaim() {
  const { tokens } = await fetchAuthSession()
  return tokens?.accessToken.payload.device_key
}

describe('aws-amplify v6 remembered devices against the embedded user pool', {
  timeout: 240_000,
}, () => {
  it('remembers the device, then signs in through DEVICE_SRP_AUTH without the TOTP code', async () => {
    const account = await registerUser(server)
    const credentials = { username: account.username, password: account.password }
    expect((await signIn(credentials)).isSignedIn).toBe(true)
    // Amplify confirmed the new device (ConfirmDevice) and keeps its key and secret.
    const deviceKey = storedDeviceKey()
    expect(deviceKey).toMatch(/^ap-northeast-1_/)
    expect(await currentDeviceClaim()).toBe(deviceKey)

    const totp = await setUpTOTP()
    await verifyTOTPSetup({ code: nextTotpCode(totp.sharedSecret, server.clock) })
    await updateMFAPreference({ totp: 'PREFERRED' })
    await signOut()

    // Tracked but not remembered ("user opt-in"): the code is asked; the session is the device's.
    const asked = await signIn(credentials)
    expect(asked.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE')
    const confirmed = await confirmSignIn({
      challengeResponse: nextTotpCode(totp.sharedSecret, server.clock),
    })
    expect(confirmed.isSignedIn).toBe(true)
    expect(storedDeviceKey()).toBe(deviceKey)
    expect(await currentDeviceClaim()).toBe(deviceKey)

    await rememberDevice()
    const devices = await fetchDevices()
    expect(devices).toHaveLength(1)
    expect(devices[0]).toMatchObject({
      id: deviceKey,
      name: expect.any(String),
      attributes: { device_status: 'valid', 'dev:device_remembered_status': 'remembered' },
      createDate: expect.any(Date),
      lastAuthenticatedDate: expect.any(Date),
    })
    await signOut()

    // Remembered: the password and the device's SRP are enough.
    const remembered = await signIn(credentials)
    expect(remembered).toMatchObject({ isSignedIn: true, nextStep: { signInStep: 'DONE' } })
    expect(await currentDeviceClaim()).toBe(deviceKey)
    const refreshed = await fetchAuthSession({ forceRefresh: true })
    expect(refreshed.tokens?.accessToken.payload.device_key).toBe(deviceKey)

    // Forgetting this device ends its session and drops its key: MFA is asked again.
    await forgetDevice()
    expect(storedDeviceKey()).toBeUndefined()
    await signOut()
    const again = await signIn(credentials)
    expect(again.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE')
    await confirmSignIn({ challengeResponse: nextTotpCode(totp.sharedSecret, server.clock) })
    const newKey = storedDeviceKey()
    expect(newKey).toMatch(/^ap-northeast-1_/)
    expect(newKey).not.toBe(deviceKey)
    await rememberDevice()
    await signOut()

    // Forgotten behind Amplify's back (ForgetDevice called directly): its stored key is
    // "Device does not exist.", so it drops the key, signs in again, and MFA is asked.
    expect((await signIn(credentials)).isSignedIn).toBe(true)
    const { tokens } = await fetchAuthSession()
    const forgotten = await call(server, 'ForgetDevice', {
      AccessToken: tokens?.accessToken.toString(),
      DeviceKey: newKey,
    })
    expect(forgotten.status).toBe(200)
    expect(storedDeviceKey()).toBe(newKey)
    await signOut()
    const afterForget = await signIn(credentials)
    expect(afterForget.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE')
    await confirmSignIn({ challengeResponse: nextTotpCode(totp.sharedSecret, server.clock) })
    expect(storedDeviceKey()).not.toBe(newKey)
    expect(await fetchDevices()).toHaveLength(1)
    await signOut()
  })
})
