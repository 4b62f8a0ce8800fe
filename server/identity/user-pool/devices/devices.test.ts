import { afterEach, describe, expect, it } from 'vitest'
import { totpCode, totpStep } from '#server/identity/totp.ts'
import { sweepExpired } from '#server/identity/user-pool/maintenance.ts'
import { CLIENT_ID, openPool, PASSWORD, type Pool } from '#server/identity/user-pool/test-pool.ts'
import { newDeviceSecret, srpClient } from '#server/identity/user-pool/test-support.ts'

let pool: Pool | undefined
afterEach(async () => {
  await pool?.close()
  pool = undefined
})

/** Confirms the new device a sign-in was given, as a client does; returns what it keeps. */
// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely in tests
async function confirmNewDevice(open: Pool, result: Record<string, any>) {
  const { device, verifierConfig } = newDeviceSecret(result.NewDeviceMetadata)
  const confirmed = await open.call('ConfirmDevice', {
    AccessToken: result.AccessToken,
    DeviceKey: device.deviceKey,
    DeviceSecretVerifierConfig: verifierConfig,
  })
  return { device, confirmed }
}

/** USER_PASSWORD_AUTH from a stored device, then its DEVICE_SRP_AUTH with a fresh A. */
async function deviceSrpFrom(open: Pool, username: string, deviceKey: string, timestamp: number) {
  const challenge = await open.call('InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    ClientId: CLIENT_ID,
    AuthParameters: { USERNAME: username, PASSWORD, DEVICE_KEY: deviceKey },
  })
  expect(challenge.body).toMatchObject({
    ChallengeName: 'DEVICE_SRP_AUTH',
    ChallengeParameters: {},
  })
  const client = srpClient('TechLabPool', { timestamp })
  const srp = await open.respond('DEVICE_SRP_AUTH', challenge.body.Session, {
    USERNAME: username,
    DEVICE_KEY: deviceKey,
    SRP_A: client.A,
  })
  expect(srp.body.ChallengeName).toBe('DEVICE_PASSWORD_VERIFIER')
  return { client, srp }
}

describe('remembered devices (in process, with a test clock)', { timeout: 30_000 }, () => {
  it('remembers every confirmed device when the pool says "always", and proves it by its SRP', async () => {
    pool = await openPool('optional', { rememberDevices: 'always' })
    const { username } = await pool.register()
    const { secret } = await pool.withTotp(username)

    const first = await pool.initiate(username)
    expect(first.body.ChallengeName).toBe('SOFTWARE_TOKEN_MFA')
    const signedIn = await pool.respond('SOFTWARE_TOKEN_MFA', first.body.Session, {
      USERNAME: username,
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, totpStep(pool.clock.now)),
    })
    const { device, confirmed } = await confirmNewDevice(pool, signedIn.body.AuthenticationResult)
    expect(confirmed.body).toEqual({ UserConfirmationNecessary: false })

    pool.clock.now += 60_000
    const { client, srp } = await deviceSrpFrom(pool, username, device.deviceKey, pool.clock.now)
    const done = await pool.respond(
      'DEVICE_PASSWORD_VERIFIER',
      srp.body.Session,
      client.respondForDevice(srp.body.ChallengeParameters, device),
    )
    expect(done.status).toBe(200)
    expect(done.body.AuthenticationResult.NewDeviceMetadata).toBeUndefined()

    const got = await pool.call('GetDevice', {
      AccessToken: done.body.AuthenticationResult.AccessToken,
      DeviceKey: device.deviceKey,
    })
    expect(got.body.Device.DeviceAttributes).toContainEqual({
      Name: 'dev:device_remembered_status',
      Value: 'remembered',
    })
    expect(got.body.Device.DeviceLastAuthenticatedDate).toBe(pool.clock.now / 1000)
  })

  it('refuses a device claim signed with a stale TIMESTAMP', async () => {
    pool = await openPool('off', { rememberDevices: 'always' })
    const { username } = await pool.register()
    const signedIn = await pool.initiate(username)
    const { device } = await confirmNewDevice(pool, signedIn.body.AuthenticationResult)
    const { client, srp } = await deviceSrpFrom(
      pool,
      username,
      device.deviceKey,
      pool.clock.now - 10 * 60_000,
    )
    const stale = await pool.respond(
      'DEVICE_PASSWORD_VERIFIER',
      srp.body.Session,
      client.respondForDevice(srp.body.ChallengeParameters, device),
    )
    expect(stale.body).toMatchObject({ __type: 'NotAuthorizedException' })
    expect(stale.body.message).toMatch(/TIMESTAMP/)
  })

  it('sweeps devices never confirmed after a day, and keeps confirmed ones', async () => {
    pool = await openPool('off')
    const { username } = await pool.register()
    const { device } = await confirmNewDevice(
      pool,
      (await pool.initiate(username)).body.AuthenticationResult,
    )
    await pool.initiate(username)
    const keys = async () =>
      (await pool?.db.selectFrom('identity_devices').select('device_key').execute())?.map(
        (row) => row.device_key,
      )
    expect(await keys()).toHaveLength(2)

    pool.clock.now += 23 * 3600_000
    await sweepExpired(pool.userPool)
    expect(await keys()).toHaveLength(2)
    pool.clock.now += 3600_000
    await sweepExpired(pool.userPool)
    expect(await keys()).toEqual([device.deviceKey])
  })

  it('checks the device of CUSTOM_AUTH before mailing a code, and lets a remembered one skip MFA', async () => {
    pool = await openPool('optional', { rememberDevices: 'always' })
    const { username, email } = await pool.register()
    const signedIn = await pool.initiate(username)
    const { device } = await confirmNewDevice(pool, signedIn.body.AuthenticationResult)
    await pool.withTotp(username)
    const customAuth = (DEVICE_KEY: string) =>
      pool?.call('InitiateAuth', {
        AuthFlow: 'CUSTOM_AUTH',
        ClientId: CLIENT_ID,
        AuthParameters: { USERNAME: username, DEVICE_KEY },
      })

    const mailed = pool.mail.length
    const unknown = await customAuth('ap-northeast-1_00000000-0000-4000-8000-000000000000')
    expect(unknown?.body).toEqual({
      __type: 'ResourceNotFoundException',
      message: 'Device does not exist.',
    })
    expect(pool.mail).toHaveLength(mailed)

    const challenge = await customAuth(device.deviceKey)
    expect(challenge?.body.ChallengeName).toBe('CUSTOM_CHALLENGE')
    const answered = await pool.respond('CUSTOM_CHALLENGE', challenge?.body.Session, {
      USERNAME: username,
      ANSWER: pool.latestCode(email),
      DEVICE_KEY: device.deviceKey,
    })
    expect(answered.body.ChallengeName).toBe('DEVICE_SRP_AUTH')
  })
})
