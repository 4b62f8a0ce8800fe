import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { limitKey } from '#server/identity/user-pool/abuse-limits.ts'
import { newDeviceSecret } from '#server/identity/user-pool/test-support.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import {
  CLIENT_ID,
  call,
  enableTotpMfa,
  nextTotpCode,
  type RawAnswer,
  registerUser,
  srpClient,
  type Tokens,
  wrongTotpCode,
} from './support.ts'

// Remembered devices over the JSON protocol, with the client's SRP computed in OpenSSL (the
// Amplify and amazon-cognito-identity-js files run the same flows with the real libraries).
let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

type Account = Awaited<ReturnType<typeof registerUser>>
type Device = ReturnType<typeof newDeviceSecret>['device']
type SignedIn = Tokens & { NewDeviceMetadata?: { DeviceKey: string; DeviceGroupKey: string } }

const claims = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString()) as Record<
    string,
    unknown
  >

function resultOf(answer: RawAnswer): SignedIn {
  const result = answer.body.AuthenticationResult as SignedIn | undefined
  if (!result) throw new Error(`not signed in: ${JSON.stringify(answer.body)}`)
  return result
}

/**
 * USER_SRP_AUTH up to PASSWORD_VERIFIER: returns how to answer it (with what responses to
 * add, such as a stored device), once or again under the same Session.
 */
async function startSrp(account: Account) {
  const client = srpClient()
  const initiate = await call(server, 'InitiateAuth', {
    AuthFlow: 'USER_SRP_AUTH',
    ClientId: CLIENT_ID,
    AuthParameters: { USERNAME: account.username, SRP_A: client.A },
  })
  const responses = client.respond(
    initiate.body.ChallengeParameters as Record<string, string>,
    account.password,
  )
  return (extra: Record<string, string | null>) =>
    call(server, 'RespondToAuthChallenge', {
      ChallengeName: 'PASSWORD_VERIFIER',
      ClientId: CLIENT_ID,
      Session: initiate.body.Session,
      ChallengeResponses: { ...responses, ...extra },
    })
}

/** The answer to PASSWORD_VERIFIER, naming a stored device if given. */
async function passwordStep(account: Account, deviceKey?: string): Promise<RawAnswer> {
  const answer = await startSrp(account)
  return answer(deviceKey ? { DEVICE_KEY: deviceKey } : {})
}

/** The answer to SOFTWARE_TOKEN_MFA, with what else the client adds (its stored device). */
const answerTotp = (
  account: Account,
  challenge: RawAnswer,
  code: string,
  extra: Record<string, string> = {},
) =>
  call(server, 'RespondToAuthChallenge', {
    ChallengeName: 'SOFTWARE_TOKEN_MFA',
    ClientId: CLIENT_ID,
    Session: challenge.body.Session,
    ChallengeResponses: { USERNAME: account.username, SOFTWARE_TOKEN_MFA_CODE: code, ...extra },
  })

/** GetTokensFromRefreshToken as Amplify sends it, with the device the client stored. */
const refreshFrom = (tokens: Tokens, DeviceKey: string) =>
  call(server, 'GetTokensFromRefreshToken', {
    ClientId: CLIENT_ID,
    RefreshToken: tokens.RefreshToken,
    DeviceKey,
  })

/** Answers DEVICE_SRP_AUTH and then DEVICE_PASSWORD_VERIFIER for the device. */
async function deviceSteps(account: Account, challenge: RawAnswer, device: Device) {
  expect(challenge.body).toMatchObject({ ChallengeName: 'DEVICE_SRP_AUTH' })
  const client = srpClient()
  const srp = await call(server, 'RespondToAuthChallenge', {
    ChallengeName: 'DEVICE_SRP_AUTH',
    ClientId: CLIENT_ID,
    Session: challenge.body.Session,
    ChallengeResponses: {
      USERNAME: account.username,
      DEVICE_KEY: device.deviceKey,
      SRP_A: client.A,
    },
  })
  expect(srp.body).toMatchObject({
    ChallengeName: 'DEVICE_PASSWORD_VERIFIER',
    ChallengeParameters: {
      DEVICE_KEY: device.deviceKey,
      USERNAME: account.username,
      SALT: expect.stringMatching(/^[0-9a-f]+$/),
      SRP_B: expect.stringMatching(/^[0-9a-f]+$/),
      SECRET_BLOCK: expect.any(String),
    },
  })
  return call(server, 'RespondToAuthChallenge', {
    ChallengeName: 'DEVICE_PASSWORD_VERIFIER',
    ClientId: CLIENT_ID,
    Session: srp.body.Session,
    ChallengeResponses: client.respondForDevice(
      srp.body.ChallengeParameters as Record<string, string>,
      device,
    ),
  })
}

/** Signs in from a new device and confirms it as a client does after NewDeviceMetadata. */
async function signInAndConfirm(account: Account, name: string) {
  const tokens = resultOf(await passwordStep(account))
  const metadata = tokens.NewDeviceMetadata
  if (!metadata) throw new Error('no NewDeviceMetadata')
  const { device, verifierConfig } = newDeviceSecret(metadata)
  const confirmed = await call(server, 'ConfirmDevice', {
    AccessToken: tokens.AccessToken,
    DeviceKey: device.deviceKey,
    DeviceSecretVerifierConfig: verifierConfig,
    DeviceName: name,
  })
  expect(confirmed).toMatchObject({ status: 200, body: { UserConfirmationNecessary: true } })
  return { tokens, device }
}

const notFound = {
  status: 400,
  body: { __type: 'ResourceNotFoundException', message: 'Device does not exist.' },
}
const invalid = { status: 400, body: { __type: 'InvalidParameterException' } }

describe('remembered devices over the protocol', { timeout: 120_000 }, () => {
  it('gives a sign-in from no known device a new device, whose key its tokens carry', async () => {
    const account = await registerUser(server)
    const tokens = resultOf(await passwordStep(account))
    expect(tokens.NewDeviceMetadata).toEqual({
      DeviceKey: expect.stringMatching(
        /^ap-northeast-1_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
      DeviceGroupKey: expect.stringMatching(/^-[A-Za-z0-9]{9}$/),
    })
    const deviceKey = tokens.NewDeviceMetadata?.DeviceKey as string
    expect(claims(tokens.AccessToken).device_key).toBe(deviceKey)
    expect(claims(tokens.IdToken).device_key).toBeUndefined()

    const refreshed = await call(server, 'InitiateAuth', {
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: CLIENT_ID,
      AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken, DEVICE_KEY: deviceKey },
    })
    expect(claims(resultOf(refreshed).AccessToken).device_key).toBe(deviceKey)
    expect(resultOf(refreshed).NewDeviceMetadata).toBeUndefined()
    const viaGetTokens = await refreshFrom(tokens, deviceKey)
    expect(claims(resultOf(viaGetTokens).AccessToken).device_key).toBe(deviceKey)
    // Left out, the key is taken from the refresh token; another device's is refused.
    const withoutKey = await call(server, 'GetTokensFromRefreshToken', {
      ClientId: CLIENT_ID,
      RefreshToken: tokens.RefreshToken,
    })
    expect(claims(resultOf(withoutKey).AccessToken).device_key).toBe(deviceKey)
    const other = resultOf(await passwordStep(account)).NewDeviceMetadata?.DeviceKey as string
    expect(other).not.toBe(deviceKey)
    for (const answer of [
      await call(server, 'InitiateAuth', {
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: CLIENT_ID,
        AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken, DEVICE_KEY: other },
      }),
      await refreshFrom(tokens, other),
    ]) {
      expect(answer).toMatchObject({ status: 400, body: { __type: 'NotAuthorizedException' } })
    }

    const byPassword = await call(server, 'InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: CLIENT_ID,
      AuthParameters: { USERNAME: account.username, PASSWORD: account.password },
    })
    expect(resultOf(byPassword).NewDeviceMetadata?.DeviceKey).toMatch(/^ap-northeast-1_/)
  })

  it('confirms, gets, lists (in pages), updates and forgets devices in Cognito’s shapes', async () => {
    const account = await registerUser(server)
    const before = Date.now() / 1000
    const laptop = await signInAndConfirm(account, 'Firefox on Linux')
    const phone = await signInAndConfirm(account, 'Safari on iPhone')
    // A device handed out but never confirmed is not listed.
    const unconfirmed = resultOf(await passwordStep(account))
    const AccessToken = unconfirmed.AccessToken

    const got = await call(server, 'GetDevice', { AccessToken, DeviceKey: laptop.device.deviceKey })
    expect(got.status).toBe(200)
    const device = got.body.Device as Record<string, unknown>
    expect(device.DeviceKey).toBe(laptop.device.deviceKey)
    expect(device.DeviceAttributes).toEqual(
      expect.arrayContaining([
        { Name: 'device_status', Value: 'valid' },
        { Name: 'dev:device_remembered_status', Value: 'not_remembered' },
        { Name: 'device_name', Value: 'Firefox on Linux' },
        { Name: 'last_ip_used', Value: expect.stringMatching(/127\.0\.0\.1|::1/) },
      ]),
    )
    for (const date of [
      'DeviceCreateDate',
      'DeviceLastModifiedDate',
      'DeviceLastAuthenticatedDate',
    ]) {
      expect(device[date]).toBeGreaterThanOrEqual(Math.floor(before))
      expect(device[date]).toBeLessThanOrEqual(Date.now() / 1000 + 1)
    }

    const first = await call(server, 'ListDevices', { AccessToken, Limit: 1 })
    expect(first.body.Devices).toHaveLength(1)
    expect(first.body.PaginationToken).toEqual(expect.any(String))
    const second = await call(server, 'ListDevices', {
      AccessToken,
      Limit: 1,
      PaginationToken: first.body.PaginationToken,
    })
    expect(second.body.Devices).toHaveLength(1)
    expect(second.body.PaginationToken).toBeUndefined()
    const listed = [...(first.body.Devices as object[]), ...(second.body.Devices as object[])].map(
      (entry) => (entry as { DeviceKey: string }).DeviceKey,
    )
    expect(listed.sort()).toEqual([laptop.device.deviceKey, phone.device.deviceKey].sort())

    // Confirmed once: a second ConfirmDevice cannot replace the device's verifier.
    const again = await call(server, 'ConfirmDevice', {
      AccessToken,
      DeviceKey: laptop.device.deviceKey,
      DeviceSecretVerifierConfig: newDeviceSecret({
        DeviceKey: laptop.device.deviceKey,
        DeviceGroupKey: laptop.device.deviceGroupKey,
      }).verifierConfig,
    })
    expect(again).toMatchObject(notFound)

    const updated = await call(server, 'UpdateDeviceStatus', {
      AccessToken,
      DeviceKey: phone.device.deviceKey,
      DeviceRememberedStatus: 'remembered',
    })
    expect(updated).toMatchObject({ status: 200, body: {} })
    const phoneNow = await call(server, 'GetDevice', {
      AccessToken,
      DeviceKey: phone.device.deviceKey,
    })
    expect(
      (phoneNow.body.Device as { DeviceAttributes: object[] }).DeviceAttributes,
    ).toContainEqual({
      Name: 'dev:device_remembered_status',
      Value: 'remembered',
    })

    expect(
      await call(server, 'ForgetDevice', { AccessToken, DeviceKey: laptop.device.deviceKey }),
    ).toMatchObject({ status: 200, body: {} })
    expect(
      await call(server, 'GetDevice', { AccessToken, DeviceKey: laptop.device.deviceKey }),
    ).toMatchObject(notFound)
    const remaining = await call(server, 'ListDevices', { AccessToken })
    expect((remaining.body.Devices as { DeviceKey: string }[]).map((d) => d.DeviceKey)).toEqual([
      phone.device.deviceKey,
    ])
  })

  it('shows and changes a user’s devices only to that user', async () => {
    const owner = await registerUser(server)
    const stranger = await registerUser(server)
    const { device } = await signInAndConfirm(owner, 'Owner’s laptop')
    const pending = resultOf(await passwordStep(owner)).NewDeviceMetadata as {
      DeviceKey: string
      DeviceGroupKey: string
    }
    const AccessToken = resultOf(await passwordStep(stranger)).AccessToken
    const DeviceKey = device.deviceKey
    expect(await call(server, 'GetDevice', { AccessToken, DeviceKey })).toMatchObject(notFound)
    expect(
      await call(server, 'UpdateDeviceStatus', {
        AccessToken,
        DeviceKey,
        DeviceRememberedStatus: 'remembered',
      }),
    ).toMatchObject(notFound)
    expect(await call(server, 'ForgetDevice', { AccessToken, DeviceKey })).toMatchObject(notFound)
    expect(
      await call(server, 'ConfirmDevice', {
        AccessToken,
        DeviceKey: pending.DeviceKey,
        DeviceSecretVerifierConfig: newDeviceSecret(pending).verifierConfig,
      }),
    ).toMatchObject(notFound)
    const strangersList = await call(server, 'ListDevices', { AccessToken })
    expect(strangersList.body.Devices).toEqual([])
    // Nor can the stranger sign in "from" the owner's device.
    expect(await passwordStep(stranger, DeviceKey)).toMatchObject(notFound)

    const ownerToken = resultOf(await passwordStep(owner)).AccessToken
    const still = await call(server, 'GetDevice', { AccessToken: ownerToken, DeviceKey })
    expect(still.status).toBe(200)
    expect((still.body.Device as { DeviceAttributes: object[] }).DeviceAttributes).toContainEqual({
      Name: 'dev:device_remembered_status',
      Value: 'not_remembered',
    })
  })

  it('refuses bad input with the protocol’s errors', async () => {
    const account = await registerUser(server)
    const tokens = resultOf(await passwordStep(account))
    const AccessToken = tokens.AccessToken
    const metadata = tokens.NewDeviceMetadata as { DeviceKey: string; DeviceGroupKey: string }
    const { verifierConfig } = newDeviceSecret(metadata)
    const unknownKey = 'ap-northeast-1_00000000-0000-4000-8000-000000000000'

    expect(await call(server, 'GetDevice', { AccessToken, DeviceKey: unknownKey })).toMatchObject(
      notFound,
    )
    expect(await call(server, 'GetDevice', { AccessToken, DeviceKey: 'not a key' })).toMatchObject(
      invalid,
    )
    const zero = Buffer.from([0]).toString('base64')
    for (const config of [
      { ...verifierConfig, PasswordVerifier: zero },
      { ...verifierConfig, PasswordVerifier: Buffer.from([1]).toString('base64') },
      { ...verifierConfig, Salt: 'not base64!' },
      { Salt: verifierConfig.Salt },
      undefined,
    ]) {
      expect(
        await call(server, 'ConfirmDevice', {
          AccessToken,
          DeviceKey: metadata.DeviceKey,
          DeviceSecretVerifierConfig: config,
        }),
      ).toMatchObject(invalid)
    }
    expect(await call(server, 'ListDevices', { AccessToken, Limit: 61 })).toMatchObject(invalid)
    expect(
      await call(server, 'ListDevices', { AccessToken, PaginationToken: 'bm90IGEga2V5' }),
    ).toMatchObject(invalid)
    expect(
      await call(server, 'UpdateDeviceStatus', {
        AccessToken,
        DeviceKey: metadata.DeviceKey,
        DeviceRememberedStatus: 'forever',
      }),
    ).toMatchObject(invalid)
    expect(
      await call(server, 'GetDevice', { AccessToken: 'x.y.z', DeviceKey: metadata.DeviceKey }),
    ).toMatchObject({ status: 400, body: { __type: 'NotAuthorizedException' } })
    // The bad calls lost nothing: the device can still be confirmed.
    expect(
      await call(server, 'ConfirmDevice', {
        AccessToken,
        DeviceKey: metadata.DeviceKey,
        DeviceSecretVerifierConfig: verifierConfig,
      }),
    ).toMatchObject({ status: 200, body: { UserConfirmationNecessary: true } })
  })

  it('lets a remembered device stand in for TOTP, and asks for it again once not remembered or forgotten', async () => {
    const account = await registerUser(server)
    const secret = await enableTotpMfa(server, account)

    const first = await passwordStep(account)
    expect(first.body.ChallengeName).toBe('SOFTWARE_TOKEN_MFA')
    const mfaDone = await answerTotp(account, first, nextTotpCode(secret, server.clock))
    const tokens = resultOf(mfaDone)
    const { device, verifierConfig } = newDeviceSecret(
      tokens.NewDeviceMetadata as { DeviceKey: string; DeviceGroupKey: string },
    )
    await call(server, 'ConfirmDevice', {
      AccessToken: tokens.AccessToken,
      DeviceKey: device.deviceKey,
      DeviceSecretVerifierConfig: verifierConfig,
      DeviceName: 'Test runner',
    })
    await call(server, 'UpdateDeviceStatus', {
      AccessToken: tokens.AccessToken,
      DeviceKey: device.deviceKey,
      DeviceRememberedStatus: 'remembered',
    })

    // Remembered: the password, then the device, and no MFA code.
    const remembered = await deviceSteps(
      account,
      await passwordStep(account, device.deviceKey),
      device,
    )
    const rememberedTokens = resultOf(remembered)
    expect(rememberedTokens.NewDeviceMetadata).toBeUndefined()
    expect(claims(rememberedTokens.AccessToken).device_key).toBe(device.deviceKey)

    // A wrong device secret fails and counts toward the lockout.
    const wrong = await deviceSteps(account, await passwordStep(account, device.deviceKey), {
      ...device,
      secret: 'not the device secret',
    })
    expect(wrong).toMatchObject({ status: 400, body: { __type: 'NotAuthorizedException' } })
    const { limiter } = server.app.identity.userPool.limits
    expect(await limiter.count(limitKey('fail-user', account.sub))).toBe(1)

    // DEVICE_SRP_AUTH for another key than the sign-in named is refused.
    const mismatch = await passwordStep(account, device.deviceKey)
    const client = srpClient()
    expect(
      await call(server, 'RespondToAuthChallenge', {
        ChallengeName: 'DEVICE_SRP_AUTH',
        ClientId: CLIENT_ID,
        Session: mismatch.body.Session,
        ChallengeResponses: {
          USERNAME: account.username,
          DEVICE_KEY: 'ap-northeast-1_00000000-0000-4000-8000-000000000000',
          SRP_A: client.A,
        },
      }),
    ).toMatchObject({ status: 400, body: { __type: 'NotAuthorizedException' } })

    // Not remembered: the device stands in for nothing, MFA is asked; the session is still
    // the device's (no new device).
    await call(server, 'UpdateDeviceStatus', {
      AccessToken: rememberedTokens.AccessToken,
      DeviceKey: device.deviceKey,
      DeviceRememberedStatus: 'not_remembered',
    })
    const notRemembered = await passwordStep(account, device.deviceKey)
    expect(notRemembered.body.ChallengeName).toBe('SOFTWARE_TOKEN_MFA')
    const wrongCode = await answerTotp(account, notRemembered, wrongTotpCode(secret, server.clock))
    expect(wrongCode.body.__type).toBe('CodeMismatchException')
    const verified = resultOf(
      await answerTotp(account, notRemembered, nextTotpCode(secret, server.clock), {
        DEVICE_KEY: device.deviceKey,
      }),
    )
    expect(verified.NewDeviceMetadata).toBeUndefined()
    expect(claims(verified.AccessToken).device_key).toBe(device.deviceKey)

    // Forgotten: the stored key is "Device does not exist."; the same step without it goes on
    // to MFA (amazon-cognito-identity-js sends DEVICE_KEY null when it retries).
    await call(server, 'ForgetDevice', {
      AccessToken: verified.AccessToken,
      DeviceKey: device.deviceKey,
    })
    const answer = await startSrp(account)
    expect(await answer({ DEVICE_KEY: device.deviceKey })).toMatchObject(notFound)
    const retried = await answer({ DEVICE_KEY: null })
    expect(retried.body.ChallengeName).toBe('SOFTWARE_TOKEN_MFA')
  })

  it('ends the sessions of a forgotten device; GlobalSignOut ends sessions but keeps devices', async () => {
    const account = await registerUser(server)
    const laptop = await signInAndConfirm(account, 'Laptop')
    const phone = await signInAndConfirm(account, 'Phone')

    await call(server, 'ForgetDevice', {
      AccessToken: phone.tokens.AccessToken,
      DeviceKey: laptop.device.deviceKey,
    })
    expect(await refreshFrom(laptop.tokens, laptop.device.deviceKey)).toMatchObject({
      status: 400,
      body: { __type: 'NotAuthorizedException' },
    })
    expect(await call(server, 'GetUser', { AccessToken: laptop.tokens.AccessToken })).toMatchObject(
      { status: 400, body: { __type: 'NotAuthorizedException' } },
    )
    expect((await call(server, 'GetUser', { AccessToken: phone.tokens.AccessToken })).status).toBe(
      200,
    )

    expect(
      (await call(server, 'GlobalSignOut', { AccessToken: phone.tokens.AccessToken })).status,
    ).toBe(200)
    expect(await refreshFrom(phone.tokens, phone.device.deviceKey)).toMatchObject({
      status: 400,
      body: { __type: 'NotAuthorizedException' },
    })
    // The phone is still tracked, and once remembered it proves itself at sign-in.
    const { AccessToken } = resultOf(await passwordStep(account))
    await call(server, 'UpdateDeviceStatus', {
      AccessToken,
      DeviceKey: phone.device.deviceKey,
      DeviceRememberedStatus: 'remembered',
    })
    const again = await deviceSteps(
      account,
      await passwordStep(account, phone.device.deviceKey),
      phone.device,
    )
    expect(claims(resultOf(again).AccessToken).device_key).toBe(phone.device.deviceKey)
  })
})
