import path from 'node:path'
import { Writable } from 'node:stream'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTemporaryDatabase, type TemporaryDatabase } from '#db/test-support.ts'
import { loadConfig } from '#server/config.ts'
import { createIdentity, type Identity, identityPlugin } from '#server/identity/index.ts'
import type { MailMessage } from '#server/mail/mailer.ts'
import { sweepExpired } from './maintenance.ts'
import { srpClient } from './test-support.ts'

const config = loadConfig({ PORT: '0' }).identity
let settings: typeof config
const PASSWORD = 'Correct#Horse9'
let database: TemporaryDatabase
let app: FastifyInstance
let identity: Identity
const logs: string[] = []
const mail: MailMessage[] = []
const events: string[] = []

beforeAll(async () => {
  database = await openTemporaryDatabase()
  settings = { ...config, keysFile: path.join(database.dir, 'signing-keys.json') }
  app = Fastify({
    // As server/app.ts configures it, at the most talkative level.
    logger: {
      level: 'trace',
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      stream: new Writable({
        write(chunk, _encoding, done) {
          logs.push(String(chunk))
          done()
        },
      }),
    },
  })
  identity = await createIdentity({
    db: database.db,
    settings,
    mailer: { send: async (message) => void mail.push(message) },
    events: {
      usernameRefusal: async (username) =>
        username === 'taken' ? 'このユーザー名はすでに使われています' : undefined,
      accountConfirmed: async (account) => void events.push(`confirmed ${account.username}`),
      accountDeleted: async (sub) => void events.push(`deleted ${sub}`),
      sessionsEnded: (sub) => void events.push(`sessions ended ${sub}`),
    },
    log: app.log,
  })
  await app.register(identityPlugin, { identity })
})
afterAll(async () => {
  await app?.close()
  await database?.remove()
})

async function call(operation: string, body: object, headers: Record<string, string> = {}) {
  const response = await app.inject({
    method: 'POST',
    url: '/cognito-idp/',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
      ...headers,
    },
    payload: JSON.stringify(body),
  })
  // biome-ignore lint/suspicious/noExplicitAny: answers are read loosely in tests
  return { status: response.statusCode, body: response.json() as Record<string, any> }
}

describe('the user pool plugin', () => {
  it('never writes a password, code, token or SRP value to the log', async () => {
    const secrets: string[] = [PASSWORD]
    await call('SignUp', {
      ClientId: settings.clientId,
      Username: 'hana',
      Password: PASSWORD,
      UserAttributes: [{ Name: 'email', Value: 'hana@example.com' }],
    })
    const code = /\b(\d{6})\b/.exec(mail.at(-1)?.text ?? '')?.[1] as string
    secrets.push(code)
    expect(
      (
        await call('ConfirmSignUp', {
          ClientId: settings.clientId,
          Username: 'hana',
          ConfirmationCode: code,
        })
      ).status,
    ).toBe(200)
    expect(events).toContain('confirmed hana')

    const client = srpClient('TechLabPool')
    const initiate = await call('InitiateAuth', {
      AuthFlow: 'USER_SRP_AUTH',
      ClientId: settings.clientId,
      AuthParameters: { USERNAME: 'hana', SRP_A: client.A },
    })
    const responses = client.respond(initiate.body.ChallengeParameters, PASSWORD)
    secrets.push(
      client.A,
      initiate.body.Session,
      initiate.body.ChallengeParameters.SRP_B,
      initiate.body.ChallengeParameters.SECRET_BLOCK,
      responses.PASSWORD_CLAIM_SIGNATURE,
    )
    const signedIn = await call('RespondToAuthChallenge', {
      ChallengeName: 'PASSWORD_VERIFIER',
      ClientId: settings.clientId,
      Session: initiate.body.Session,
      ChallengeResponses: responses,
    })
    const result = signedIn.body.AuthenticationResult
    secrets.push(result.AccessToken, result.IdToken, result.RefreshToken)
    await call('GetUser', { AccessToken: result.AccessToken })
    await call('ChangePassword', {
      AccessToken: result.AccessToken,
      PreviousPassword: 'Wrong#Horse1',
      ProposedPassword: 'Next#Horse22',
    })
    await call('InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: settings.clientId,
      AuthParameters: { USERNAME: 'hana', PASSWORD: 'Wrong#Horse1' },
    })
    await call(
      'AdminCreateUser',
      { UserPoolId: settings.userPoolId, Username: 'x' },
      { authorization: `Bearer ${result.AccessToken}` },
    )
    secrets.push('Wrong#Horse1', 'Next#Horse22')

    const text = logs.join('')
    expect(text).toContain('incoming request')
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(5)
      expect(text).not.toContain(secret)
    }
    // Nor their beginnings (a truncated token is still a leak).
    for (const secret of secrets.filter((s) => s.length > 40))
      expect(text).not.toContain(secret.slice(0, 32))
  })

  it('refuses usernames the product refuses, in its words', async () => {
    const answer = await call('SignUp', {
      ClientId: settings.clientId,
      Username: 'taken',
      Password: PASSWORD,
      UserAttributes: [{ Name: 'email', Value: 'taken@example.com' }],
    })
    expect(answer.body).toEqual({
      __type: 'InvalidParameterException',
      message: 'このユーザー名はすでに使われています',
    })
  })

  it('creates users from inside the process and mails the invitation', async () => {
    const { User } = await identity.adminCreateUser({
      UserPoolId: settings.userPoolId,
      Username: 'newbie',
      UserAttributes: [{ Name: 'email', Value: 'newbie@example.com' }],
    })
    expect(User).toMatchObject({ Username: 'newbie', UserStatus: 'FORCE_CHANGE_PASSWORD' })
    expect(events).toContain('confirmed newbie')
    expect(mail.at(-1)?.to).toBe('newbie@example.com')
    expect(mail.at(-1)?.text).toMatch(/仮パスワード: \S+/)
    await expect(
      identity.adminCreateUser({ UserPoolId: settings.userPoolId, Username: 'newbie' }),
    ).rejects.toMatchObject({ type: 'UsernameExistsException' })
  })

  it('sweeps expired sessions and stale codes', async () => {
    const client = srpClient('TechLabPool')
    await call('InitiateAuth', {
      AuthFlow: 'USER_SRP_AUTH',
      ClientId: settings.clientId,
      AuthParameters: { USERNAME: 'hana', SRP_A: client.A },
    })
    const count = async () =>
      (await database.db.selectFrom('identity_auth_sessions').select('id_hash').execute()).length
    expect(await count()).toBeGreaterThan(0)
    await sweepExpired({ ...identity.userPool, now: () => Date.now() + 4 * 60_000 })
    expect(await count()).toBe(0)
    await sweepExpired({ ...identity.userPool, now: () => Date.now() + 2 * 86_400_000 })
    expect(await database.db.selectFrom('identity_codes').select('id').execute()).toEqual([])
  })
})
