import {
  AuthenticationDetails,
  CognitoUser,
  CognitoUserPool,
  type CognitoUserSession,
  type ICognitoStorage,
} from 'amazon-cognito-identity-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { CLIENT_ID, call, enableTotpMfa, nextTotpCode, POOL_ID, registerUser } from './support.ts'

// The library does its 3072-bit arithmetic in JavaScript: seconds per sign-in.
const SLOW = { timeout: 240_000 }

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

/** The browser's localStorage for the library: where it keeps the device key and secret. */
function memoryStorage(): ICognitoStorage & { entries: Map<string, string> } {
  const entries = new Map<string, string>()
  return {
    entries,
    setItem: (key, value) => void entries.set(key, value),
    getItem: (key) => entries.get(key) ?? null,
    removeItem: (key) => void entries.delete(key),
    clear: () => entries.clear(),
  }
}

type SignInOutcome = { session: CognitoUserSession; askedForTotp: boolean }

/** A sign-in as an app does it, answering the TOTP challenge if it comes. */
function signInWith(
  user: CognitoUser,
  account: { username: string; password: string },
  secret: string,
): Promise<SignInOutcome> {
  let askedForTotp = false
  return new Promise((resolve, reject) => {
    const callbacks = {
      onSuccess: (session: CognitoUserSession) => resolve({ session, askedForTotp }),
      onFailure: reject,
      totpRequired: () => {
        askedForTotp = true
        user.sendMFACode(nextTotpCode(secret, server.clock), callbacks, 'SOFTWARE_TOKEN_MFA')
      },
    }
    user.authenticateUser(
      new AuthenticationDetails({ Username: account.username, Password: account.password }),
      callbacks,
    )
  })
}

function promised<T>(run: (done: (error: unknown, value?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) =>
    run((error, value) => (error ? reject(error) : resolve(value as T))),
  )
}

describe('amazon-cognito-identity-js remembered devices', SLOW, () => {
  it('confirms its device, remembers it, and then signs in without the TOTP code', async () => {
    const account = await registerUser(server)
    const secret = await enableTotpMfa(server, account)
    const storage = memoryStorage()
    const pool = new CognitoUserPool({
      UserPoolId: POOL_ID,
      ClientId: CLIENT_ID,
      endpoint: `${server.url}/cognito-idp/`,
      Storage: storage,
    })
    const newUser = () =>
      new CognitoUser({ Username: account.username, Pool: pool, Storage: storage })
    const deviceKeyEntry = `CognitoIdentityServiceProvider.${CLIENT_ID}.${account.username}.deviceKey`

    const user = newUser()
    const first = await signInWith(user, account, secret)
    expect(first.askedForTotp).toBe(true)
    // The library confirmed the new device after MFA and stored its key.
    const deviceKey = storage.entries.get(deviceKeyEntry)
    expect(deviceKey).toMatch(/^ap-northeast-1_/)
    expect(first.session.getAccessToken().payload.device_key).toBe(deviceKey)

    await promised<string>((done) =>
      user.setDeviceStatusRemembered({ onSuccess: (r) => done(null, r), onFailure: done }),
    )
    const got = await promised<{ Device: { DeviceKey: string; DeviceAttributes: object[] } }>(
      // The library's typings say string; it passes the response object.
      (done) => user.getDevice({ onSuccess: (r) => done(null, r as never), onFailure: done }),
    )
    expect(got.Device.DeviceKey).toBe(deviceKey)
    expect(got.Device.DeviceAttributes).toContainEqual({
      Name: 'dev:device_remembered_status',
      Value: 'remembered',
    })
    const listed = await promised<{ Devices: { DeviceKey: string }[] }>((done) =>
      user.listDevices(10, null, { onSuccess: (r) => done(null, r), onFailure: done }),
    )
    expect(listed.Devices.map((device) => device.DeviceKey)).toEqual([deviceKey])

    // Remembered: DEVICE_SRP_AUTH instead of the code.
    const remembered = await signInWith(newUser(), account, secret)
    expect(remembered.askedForTotp).toBe(false)
    expect(remembered.session.getAccessToken().payload.device_key).toBe(deviceKey)

    // Not remembered: the code again, and the session still belongs to the device.
    const current = newUser()
    const verified = await signInWith(current, account, secret)
    await promised<string>((done) =>
      current.setDeviceStatusNotRemembered({ onSuccess: (r) => done(null, r), onFailure: done }),
    )
    expect(verified.askedForTotp).toBe(false)
    const notRemembered = await signInWith(newUser(), account, secret)
    expect(notRemembered.askedForTotp).toBe(true)
    expect(notRemembered.session.getAccessToken().payload.device_key).toBe(deviceKey)
    expect(storage.entries.get(deviceKeyEntry)).toBe(deviceKey)

    // Forgotten behind the library's back: its stored key is "Device does not exist.", it
    // drops the key, answers the same step without it, and gets the code asked.
    const forgotten = await call(server, 'ForgetDevice', {
      AccessToken: notRemembered.session.getAccessToken().getJwtToken(),
      DeviceKey: deviceKey,
    })
    expect(forgotten.status).toBe(200)
    const afterForget = await signInWith(newUser(), account, secret)
    expect(afterForget.askedForTotp).toBe(true)
    const replacement = storage.entries.get(deviceKeyEntry)
    expect(replacement).toMatch(/^ap-northeast-1_/)
    expect(replacement).not.toBe(deviceKey)
  })
})
