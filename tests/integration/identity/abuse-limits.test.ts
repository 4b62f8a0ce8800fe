import { randomInt } from 'node:crypto'
import {
  type CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ConfirmSignUpCommand,
  ForgotPasswordCommand,
  InitiateAuthCommand,
  ResendConfirmationCodeCommand,
  SignUpCommand,
  UpdateUserAttributesCommand,
} from '@aws-sdk/client-cognito-identity-provider'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newDeviceSecret } from '#server/identity/user-pool/test-support.ts'
import { listOutbox } from '#server/mail/outbox.ts'
import { TEST_REDIS_URL as REDIS_URL, redisReachable } from '#tests/support/redis.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import {
  CLIENT_ID,
  call,
  latestCode,
  newAccount,
  registerUser,
  sdkClient,
  srpClient,
} from './support.ts'

/**
 * The abuse limits of docs/decisions/021, lowered so each shows in a few requests. The
 * server trusts X-Forwarded-For (TRUST_PROXY), so each client below comes from an address of
 * its own, as it would behind the site's proxy.
 */
const LIMITS = {
  TRUST_PROXY: 'true',
  SIGN_UPS_PER_IP_PER_HOUR: '3',
  MAILS_PER_ADDRESS_PER_HOUR: '3',
  MAILS_PER_IP_PER_HOUR: '6',
  FAILED_SIGN_INS_PER_SOURCE: '3',
  FAILED_SIGN_INS_PER_USER_PER_DAY: '5',
}

let server: TestServer
const clients: CognitoIdentityProviderClient[] = []

beforeAll(async () => {
  server = await startTestServer(LIMITS)
})
afterAll(async () => {
  for (const client of clients) client.destroy()
  await server?.close()
})

/** A documentation-range address no other test (or earlier run, with Redis) has used. */
const newAddress = () => `203.0.${randomInt(256)}.${randomInt(1, 255)}`

/** The real SDK client, its requests coming from `address` through the proxy. */
function clientFrom(target: TestServer, address = newAddress()) {
  const client = sdkClient(target)
  client.middlewareStack.add(
    (next) => (args) => {
      const request = args.request as { headers: Record<string, string> }
      request.headers['x-forwarded-for'] = address
      return next(args)
    },
    { step: 'build', name: 'forwardedFor' },
  )
  clients.push(client)
  return client
}

const signUp = (
  client: CognitoIdentityProviderClient,
  username: string,
  email: string,
  password = newAccount().password,
) =>
  client.send(
    new SignUpCommand({
      ClientId: CLIENT_ID,
      Username: username,
      Password: password,
      UserAttributes: [{ Name: 'email', Value: email }],
    }),
  )

const passwordAuth = (client: CognitoIdentityProviderClient, name: string, password: string) =>
  client.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: CLIENT_ID,
      AuthParameters: { USERNAME: name, PASSWORD: password },
    }),
  )

/** A confirmed account, registered from an address of its own (so no limit of another test counts). */
async function registered(target: TestServer = server) {
  const client = clientFrom(target)
  const account = newAccount()
  await signUp(client, account.username, account.email, account.password)
  await client.send(
    new ConfirmSignUpCommand({
      ClientId: CLIENT_ID,
      Username: account.username,
      ConfirmationCode: await latestCode(target, account.email),
    }),
  )
  return account
}

async function mailsTo(target: TestServer, address: string) {
  return (await listOutbox(target.database.db, { to: address, limit: 100 })).length
}

describe('mail limits', () => {
  it('sign-ups naming one victim’s address, from many addresses, mail it only up to its limit', async () => {
    const victim = `${newAccount('victim').username}@example.com`
    const answers = await Promise.allSettled(
      Array.from({ length: 10 }, () => signUp(clientFrom(server), newAccount().username, victim)),
    )
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(3)
    for (const answer of answers.filter((a) => a.status === 'rejected')) {
      expect(answer.reason).toMatchObject({
        name: 'LimitExceededException',
        message: 'Attempt limit exceeded, please try after some time.',
      })
    }
    expect(await mailsTo(server, victim)).toBe(3)
    // A refused sign-up leaves no account behind.
    const accounts = await server.database.db
      .selectFrom('identity_users')
      .select('sub')
      .where('email', '=', victim)
      .execute()
    expect(accounts).toHaveLength(3)
  })

  it('limits sign-ups per client address: TooManyRequestsException', async () => {
    const client = clientFrom(server)
    for (let i = 0; i < 3; i++) {
      const account = newAccount()
      await signUp(client, account.username, account.email)
    }
    const fourth = newAccount()
    await expect(signUp(client, fourth.username, fourth.email)).rejects.toMatchObject({
      name: 'TooManyRequestsException',
    })
    expect(await mailsTo(server, fourth.email)).toBe(0)
    // Another address may still sign up.
    await signUp(clientFrom(server), fourth.username, fourth.email)
  })

  it('limits every mail-sending operation per client address, simulated ones included', async () => {
    const client = clientFrom(server)
    const names = Array.from({ length: 6 }, () => newAccount('ghost').username)
    // Nobody has these names: the answers look the same as real ones, and count the same.
    for (const name of names.slice(0, 3)) {
      const sent = await client.send(
        new ForgotPasswordCommand({ ClientId: CLIENT_ID, Username: name }),
      )
      expect(sent.CodeDeliveryDetails).toMatchObject({
        DeliveryMedium: 'EMAIL',
        AttributeName: 'email',
      })
    }
    for (const name of names.slice(3)) {
      const sent = await client.send(
        new ResendConfirmationCodeCommand({ ClientId: CLIENT_ID, Username: name }),
      )
      expect(sent.CodeDeliveryDetails?.DeliveryMedium).toBe('EMAIL')
    }
    // Sign-in does not tell an unknown name from a wrong password either.
    await expect(passwordAuth(client, names[0] as string, 'Wrong#Horse9')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    })
    const real = await registered()
    await expect(
      client.send(new ForgotPasswordCommand({ ClientId: CLIENT_ID, Username: real.username })),
    ).rejects.toMatchObject({ name: 'TooManyRequestsException' })
  })

  it('limits email changes per new address', async () => {
    const victim = `${newAccount('victim').username}@example.com`
    for (let i = 0; i < 4; i++) {
      const account = await registered()
      const { AuthenticationResult } = await passwordAuth(
        clientFrom(server),
        account.username,
        account.password,
      )
      const AccessToken = AuthenticationResult?.AccessToken
      const change = clientFrom(server).send(
        new UpdateUserAttributesCommand({
          AccessToken,
          UserAttributes: [{ Name: 'email', Value: victim }],
        }),
      )
      if (i < 3) await change
      else await expect(change).rejects.toMatchObject({ name: 'LimitExceededException' })
    }
    expect(await mailsTo(server, victim)).toBe(3)
  })
})

describe('the client address', () => {
  it('is the connection’s own unless TRUST_PROXY says whose X-Forwarded-For to believe', async () => {
    const direct = await startTestServer({ SIGN_UPS_PER_IP_PER_HOUR: '2' })
    try {
      // Each request claims another address; without a trusted proxy they all count as one.
      const answers = await Promise.allSettled(
        Array.from({ length: 3 }, () => {
          const account = newAccount()
          return signUp(clientFrom(direct), account.username, account.email)
        }),
      )
      expect(answers.map((a) => a.status).sort()).toEqual(['fulfilled', 'fulfilled', 'rejected'])
    } finally {
      await direct.close()
    }
  })
})

describe('lockout', () => {
  it('locks a user out only where the wrong passwords came from; past the daily cap it slows unknown sources and locks nobody', async () => {
    const account = await registered()
    const [attacker, owner, elsewhere, later, stranger] = [
      clientFrom(server),
      clientFrom(server),
      clientFrom(server),
      clientFrom(server),
      clientFrom(server),
    ]
    const wrong = (client: CognitoIdentityProviderClient) =>
      expect(passwordAuth(client, account.username, 'Wrong#Horse9')).rejects.toMatchObject({
        message: 'Incorrect username or password.',
      })
    const exceeded = (client: CognitoIdentityProviderClient) =>
      expect(passwordAuth(client, account.username, account.password)).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'Password attempts exceeded',
      })
    const signsIn = async (client: CognitoIdentityProviderClient) =>
      expect(
        (await passwordAuth(client, account.username, account.password)).AuthenticationResult,
      ).toBeDefined()

    for (let i = 0; i < 3; i++) await wrong(attacker)
    await exceeded(attacker)
    // The owner, somewhere else, signs in as usual (and that address is now known as theirs).
    await signsIn(owner)

    // Guessing from more places reaches the per-user cap (5 a day here)...
    for (let i = 0; i < 2; i++) await wrong(elsewhere)
    // ...which locks nobody out: an address that has not failed gets its try.
    await signsIn(later)
    // The owner's own address keeps its usual allowance: a typo, then in.
    await wrong(owner)
    await signsIn(owner)
    // An address unknown to the user gets one wrong password a window past the cap.
    await wrong(stranger)
    await exceeded(stranger)
    await exceeded(attacker)

    // A password reset (the mailbox proved) clears it.
    await owner.send(new ForgotPasswordCommand({ ClientId: CLIENT_ID, Username: account.username }))
    await owner.send(
      new ConfirmForgotPasswordCommand({
        ClientId: CLIENT_ID,
        Username: account.username,
        ConfirmationCode: await latestCode(server, account.email),
        Password: account.password,
      }),
    )
    await signsIn(stranger)
  })

  it("lets the owner's remembered device in from an address that guessing has locked", async () => {
    const account = await registered()
    const home = newAddress()
    const from = { 'x-forwarded-for': home }
    /** USER_SRP_AUTH from `home`, naming `deviceKey` as the clients do; the last answer. */
    const srp = async (password: string, deviceKey?: string) => {
      const client = srpClient()
      const device = deviceKey ? { DEVICE_KEY: deviceKey } : {}
      const initiate = await call(
        server,
        'InitiateAuth',
        {
          AuthFlow: 'USER_SRP_AUTH',
          ClientId: CLIENT_ID,
          AuthParameters: { USERNAME: account.username, SRP_A: client.A, ...device },
        },
        from,
      )
      if (initiate.status !== 200) return initiate
      const parameters = initiate.body.ChallengeParameters as Record<string, string>
      return call(
        server,
        'RespondToAuthChallenge',
        {
          ChallengeName: 'PASSWORD_VERIFIER',
          ClientId: CLIENT_ID,
          Session: initiate.body.Session,
          ChallengeResponses: { ...client.respond(parameters, password), ...device },
        },
        from,
      )
    }
    // The owner signs in at home and remembers this device.
    const first = await srp(account.password)
    const tokens = first.body.AuthenticationResult as {
      AccessToken: string
      NewDeviceMetadata: { DeviceKey: string; DeviceGroupKey: string }
    }
    const { device, verifierConfig } = newDeviceSecret(tokens.NewDeviceMetadata)
    const confirmed = await call(server, 'ConfirmDevice', {
      AccessToken: tokens.AccessToken,
      DeviceKey: device.deviceKey,
      DeviceSecretVerifierConfig: verifierConfig,
      DeviceName: '自宅のパソコン',
    })
    expect(confirmed.status).toBe(200)
    const remembered = await call(server, 'UpdateDeviceStatus', {
      AccessToken: tokens.AccessToken,
      DeviceKey: device.deviceKey,
      DeviceRememberedStatus: 'remembered',
    })
    expect(remembered.status).toBe(200)

    // Someone behind the same address guesses until it is locked, and past the daily cap.
    for (let i = 0; i < 3; i++) {
      expect((await srp('Wrong#Horse9')).body.message).toBe('Incorrect username or password.')
    }
    for (let i = 0; i < 2; i++) {
      await expect(
        passwordAuth(clientFrom(server), account.username, 'Wrong#Horse9'),
      ).rejects.toMatchObject({ message: 'Incorrect username or password.' })
    }
    expect((await srp(account.password)).body.message).toBe('Password attempts exceeded')
    // The owner's remembered device is a source of its own: the password is taken, and the
    // device is asked to prove itself as usual.
    const fromDevice = await srp(account.password, device.deviceKey)
    expect(fromDevice.status).toBe(200)
    expect(fromDevice.body.ChallengeName).toBe('DEVICE_SRP_AUTH')
  })
})

describe('PreventUserExistenceErrors', () => {
  it('legacy: every one of these operations says who does not exist, and SignUp that an email is taken', async () => {
    const legacy = await startTestServer({ PREVENT_USER_EXISTENCE_ERRORS: 'legacy' })
    try {
      const client = sdkClient(legacy)
      clients.push(client)
      const name = newAccount('nobody').username
      for (const send of [
        () => client.send(new ForgotPasswordCommand({ ClientId: CLIENT_ID, Username: name })),
        () =>
          client.send(new ResendConfirmationCodeCommand({ ClientId: CLIENT_ID, Username: name })),
        () => passwordAuth(client, name, 'Wrong#Horse9'),
      ]) {
        await expect(send()).rejects.toMatchObject({ name: 'UserNotFoundException' })
      }
      const owner = await registerUser(legacy)
      await expect(signUp(client, newAccount().username, owner.email)).rejects.toMatchObject({
        name: 'UsernameExistsException',
        message: 'An account with the given email already exists.',
      })
    } finally {
      await legacy.close()
    }
  })
})

const redisUp = await redisReachable(REDIS_URL, 'abuse-limits.test')

describe.skipIf(!redisUp)('limits shared through Redis (REDIS_URL)', () => {
  it('counts one victim’s mails across two instances', async () => {
    const [one, two] = await Promise.all([
      startTestServer({ ...LIMITS, REDIS_URL }),
      startTestServer({ ...LIMITS, REDIS_URL }),
    ])
    try {
      const victim = `${newAccount('victim').username}@example.com`
      await signUp(clientFrom(one), newAccount().username, victim)
      await signUp(clientFrom(two), newAccount().username, victim)
      await signUp(clientFrom(one), newAccount().username, victim)
      await expect(signUp(clientFrom(two), newAccount().username, victim)).rejects.toMatchObject({
        name: 'LimitExceededException',
      })
      expect((await mailsTo(one, victim)) + (await mailsTo(two, victim))).toBe(3)
    } finally {
      await Promise.all([one.close(), two.close()])
    }
  })
})
