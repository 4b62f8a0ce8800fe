import path from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import { openTemporaryDatabase, type TemporaryDatabase } from '#db/test-support.ts'
import { type IdentitySettings, loadConfig } from '#server/config.ts'
import { createIdentity, identityPlugin } from '#server/identity/index.ts'
import { totpCode, totpStep } from '#server/identity/totp.ts'
import type { MailMessage } from '#server/mail/mailer.ts'

/**
 * For tests only: a user pool over Fastify's inject, with its own SQLite database, mailbox
 * and clock, and helpers for the steps most tests repeat.
 */
export const PASSWORD = 'Correct#Horse9'
const config = loadConfig({ PORT: '0' }).identity
export const CLIENT_ID = config.clientId

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely in tests
type Answer = { status: number; body: Record<string, any> }

/** A user pool over Fastify's inject, with its own database, mailbox and clock. */
export async function openPool(
  mfa: IdentitySettings['mfa'],
  overrides: Partial<IdentitySettings> = {},
) {
  const database: TemporaryDatabase = await openTemporaryDatabase()
  const mail: MailMessage[] = []
  const clock = { now: Date.UTC(2026, 10, 22, 3, 0, 0) }
  const app: FastifyInstance = Fastify({ logger: false })
  const identity = await createIdentity({
    db: database.db,
    settings: {
      ...config,
      mfa,
      keysFile: path.join(database.dir, 'signing-keys.json'),
      ...overrides,
    },
    mailer: { send: async (message) => void mail.push(message) },
    events: {
      usernameRefusal: async () => undefined,
      accountConfirmed: async () => {},
      accountDeleted: async () => {},
      sessionsEnded: () => {},
    },
    log: { info() {}, warn() {} },
    now: () => clock.now,
  })
  await app.register(identityPlugin, { identity })

  async function call(operation: string, body: object): Promise<Answer> {
    const response = await app.inject({
      method: 'POST',
      url: '/cognito-idp/',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
      },
      payload: JSON.stringify(body),
    })
    return { status: response.statusCode, body: response.json() }
  }

  const latestCode = (to: string) =>
    /\b(\d{6})\b/.exec(mail.filter((m) => m.to === to).at(-1)?.text ?? '')?.[1] as string

  let counter = 0
  async function register() {
    counter += 1
    const username = `mfa${counter}`
    const email = `${username}@example.com`
    await call('SignUp', {
      ClientId: CLIENT_ID,
      Username: username,
      Password: PASSWORD,
      UserAttributes: [{ Name: 'email', Value: email }],
    })
    const confirmed = await call('ConfirmSignUp', {
      ClientId: CLIENT_ID,
      Username: username,
      ConfirmationCode: latestCode(email),
    })
    expect(confirmed.status).toBe(200)
    return { username, email }
  }

  const initiate = (username: string, password = PASSWORD) =>
    call('InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: CLIENT_ID,
      AuthParameters: { USERNAME: username, PASSWORD: password },
    })

  const respond = (
    ChallengeName: string,
    Session: string,
    ChallengeResponses: Record<string, string>,
  ) =>
    call('RespondToAuthChallenge', {
      ChallengeName,
      ClientId: CLIENT_ID,
      Session,
      ChallengeResponses,
    })

  /** Signs in (no MFA yet) and sets up TOTP with the access token; returns its secret. */
  async function withTotp(username: string, options: { enable?: boolean } = {}) {
    const signedIn = await initiate(username)
    const AccessToken = signedIn.body.AuthenticationResult.AccessToken as string
    const associated = await call('AssociateSoftwareToken', { AccessToken })
    expect(associated.status).toBe(200)
    const secret = associated.body.SecretCode as string
    const verified = await call('VerifySoftwareToken', {
      AccessToken,
      UserCode: totpCode(secret, totpStep(clock.now)),
      FriendlyDeviceName: 'phone',
    })
    expect(verified.body).toEqual({ Status: 'SUCCESS' })
    if (options.enable ?? true) {
      const preference = await call('SetUserMFAPreference', {
        AccessToken,
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      })
      expect(preference.status).toBe(200)
    }
    // The next code must come from a later step: codes are single-use.
    clock.now += 30_000
    return { secret, AccessToken }
  }

  return {
    db: database.db,
    userPool: identity.userPool,
    call,
    clock,
    mail,
    latestCode,
    register,
    initiate,
    respond,
    withTotp,
    async close() {
      await app.close()
      await database.remove()
    },
  }
}

export type Pool = Awaited<ReturnType<typeof openPool>>
