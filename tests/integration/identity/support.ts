import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider'
import { Amplify } from 'aws-amplify'
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito'
import { TOTP_STEP_SECONDS, totpCode, totpStep } from '#server/identity/totp.ts'
import { srpClient as fastSrpClient } from '#server/identity/user-pool/test-support.ts'
import { listOutbox } from '#server/mail/outbox.ts'
import type { TestClock } from '#tests/support/clock.ts'
import type { TestServer } from '#tests/support/test-server.ts'

export const POOL_ID = 'ap-northeast-1_TechLabPool'
export const POOL_NAME = 'TechLabPool'
export const CLIENT_ID = 'techlabwebclient0000000000'
export const PASSWORD = 'Correct#Horse9'

let counter = 0
/** A fresh username and email for each test, valid for the site's rules. */
export function newAccount(prefix = 'u') {
  counter += 1
  const username = `${prefix}${Date.now().toString(36).slice(-5)}${counter}`.slice(0, 20)
  return { username, email: `${username}@example.com`, password: PASSWORD }
}

export function sdkClient(server: TestServer) {
  return new CognitoIdentityProviderClient({
    region: 'ap-northeast-1',
    endpoint: `${server.url}/cognito-idp`,
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'not-used' },
    maxAttempts: 1,
  })
}

export type RawAnswer = { status: number; headers: Headers; body: Record<string, unknown> }

/** One call of the JSON protocol with fetch, for what the SDK will not send. */
export async function call(
  server: TestServer,
  operation: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const response = await fetch(`${server.url}/cognito-idp/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} }
}

/** The newest six-digit code mailed to an address. */
export async function latestCode(server: TestServer, to: string): Promise<string> {
  const [message] = await listOutbox(server.database.db, { to, limit: 1 })
  const code = /\b(\d{6})\b/.exec(message?.text ?? '')?.[1]
  if (!code) throw new Error(`no code was mailed to ${to}`)
  return code
}

/** Signs up and confirms an account through the protocol. */
export async function registerUser(
  server: TestServer,
  account = newAccount(),
): Promise<typeof account & { sub: string }> {
  const signUp = await call(server, 'SignUp', {
    ClientId: CLIENT_ID,
    Username: account.username,
    Password: account.password,
    UserAttributes: [{ Name: 'email', Value: account.email }],
  })
  if (signUp.status !== 200) throw new Error(`SignUp failed: ${JSON.stringify(signUp.body)}`)
  const confirm = await call(server, 'ConfirmSignUp', {
    ClientId: CLIENT_ID,
    Username: account.username,
    ConfirmationCode: await latestCode(server, account.email),
  })
  if (confirm.status !== 200)
    throw new Error(`ConfirmSignUp failed: ${JSON.stringify(confirm.body)}`)
  return { ...account, sub: String(signUp.body.UserSub) }
}

/** The client side of SRP, fast (see server/identity/user-pool/test-support.ts). */
export function srpClient(options: { timestamp?: number } = {}) {
  return fastSrpClient(POOL_NAME, options)
}

export type Tokens = { AccessToken: string; IdToken: string; RefreshToken: string }

/** A full USER_SRP_AUTH sign-in over the protocol; returns the raw final answer. */
export async function srpSignIn(
  server: TestServer,
  name: string,
  password: string,
  options: { timestamp?: number } = {},
): Promise<RawAnswer> {
  const client = srpClient(options)
  const initiate = await call(server, 'InitiateAuth', {
    AuthFlow: 'USER_SRP_AUTH',
    ClientId: CLIENT_ID,
    AuthParameters: { USERNAME: name, SRP_A: client.A },
  })
  if (initiate.status !== 200) return initiate
  return call(server, 'RespondToAuthChallenge', {
    ChallengeName: 'PASSWORD_VERIFIER',
    ClientId: CLIENT_ID,
    Session: initiate.body.Session,
    ChallengeResponses: client.respond(
      initiate.body.ChallengeParameters as Record<string, string>,
      password,
    ),
  })
}

export async function signIn(server: TestServer, name: string, password: string): Promise<Tokens> {
  const answer = await srpSignIn(server, name, password)
  const result = answer.body.AuthenticationResult as Tokens | undefined
  if (!result) throw new Error(`sign-in failed: ${JSON.stringify(answer.body)}`)
  return result
}

/** Turns on authenticator-app MFA for an account over the protocol; returns its secret. */
export async function enableTotpMfa(
  server: TestServer,
  account: { username: string; password: string },
): Promise<string> {
  const { AccessToken } = await signIn(server, account.username, account.password)
  const associated = await call(server, 'AssociateSoftwareToken', { AccessToken })
  const secret = String(associated.body.SecretCode)
  const verified = await call(server, 'VerifySoftwareToken', {
    AccessToken,
    UserCode: nextTotpCode(secret, server.clock),
  })
  if (verified.body.Status !== 'SUCCESS') throw new Error(JSON.stringify(verified.body))
  await call(server, 'SetUserMFAPreference', {
    AccessToken,
    SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
  })
  return secret
}

const lastTotpStep = new Map<string, number>()
const STEP_MS = TOTP_STEP_SECONDS * 1000

/**
 * A fresh authenticator-app code for the secret: codes are single-use per 30-second step, so
 * when this step's code has been handed out already, the server's clock moves on to the next
 * step instead of the test waiting for it.
 */
export function nextTotpCode(secret: string, clock: TestClock): string {
  const last = lastTotpStep.get(secret)
  let step = totpStep(clock.now())
  if (last !== undefined && step <= last) {
    step = last + 1
    clock.advance(step * STEP_MS - clock.now())
  }
  lastTotpStep.set(secret, step)
  return totpCode(secret, step)
}

/** A code the secret would not give at the server's time or a step either side. */
export function wrongTotpCode(secret: string, clock: TestClock): string {
  const step = totpStep(clock.now())
  const near = new Set([-1, 0, 1, 2].map((offset) => totpCode(secret, step + offset)))
  for (let candidate = 0; ; candidate += 1) {
    const code = String(candidate).padStart(6, '0')
    if (!near.has(code)) return code
  }
}

/**
 * Points Amplify (which keeps global state: one configuration per test file) at this server,
 * with its token storage in a Map the test can look into.
 */
export function configureAmplify(
  server: TestServer,
  options: { identityPoolId?: string } = {},
): Map<string, string> {
  const userPool = {
    userPoolId: POOL_ID,
    userPoolClientId: CLIENT_ID,
    userPoolEndpoint: `${server.url}/cognito-idp`,
  }
  const identityPoolId = options.identityPoolId
  if (identityPoolId) {
    Amplify.configure({
      Auth: {
        Cognito: {
          ...userPool,
          identityPoolId,
          identityPoolEndpoint: `${server.url}/cognito-identity`,
          allowGuestAccess: true,
        },
      },
    })
  } else {
    Amplify.configure({ Auth: { Cognito: userPool } })
  }
  const storage = new Map<string, string>()
  cognitoUserPoolsTokenProvider.setKeyValueStorage({
    setItem: async (key, value) => void storage.set(key, value),
    getItem: async (key) => storage.get(key) ?? null,
    removeItem: async (key) => void storage.delete(key),
    clear: async () => storage.clear(),
  })
  return storage
}
