import { GetTokensFromRefreshTokenCommand } from '@aws-sdk/client-cognito-identity-provider'
import {
  AuthenticationDetails,
  type CognitoRefreshToken,
  CognitoUser,
  CognitoUserPool,
  type CognitoUserSession,
} from 'amazon-cognito-identity-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { CLIENT_ID, newAccount, POOL_ID, registerUser, sdkClient } from './support.ts'

// The library does its 3072-bit arithmetic in JavaScript: seconds per sign-in.
const SLOW = { timeout: 120_000 }

let server: TestServer
let pool: CognitoUserPool

beforeAll(async () => {
  server = await startTestServer()
  pool = new CognitoUserPool({
    UserPoolId: POOL_ID,
    ClientId: CLIENT_ID,
    endpoint: `${server.url}/cognito-idp/`,
  })
})
afterAll(async () => {
  await server?.close()
})

type Outcome =
  | { kind: 'success'; session: CognitoUserSession }
  | { kind: 'newPasswordRequired'; attributes: Record<string, string> }
  | { kind: 'failure'; error: Error & { code?: string } }

function authenticate(user: CognitoUser, name: string, password: string): Promise<Outcome> {
  return new Promise((resolve) => {
    user.authenticateUser(new AuthenticationDetails({ Username: name, Password: password }), {
      onSuccess: (session) => resolve({ kind: 'success', session }),
      onFailure: (error) => resolve({ kind: 'failure', error }),
      newPasswordRequired: (attributes) => resolve({ kind: 'newPasswordRequired', attributes }),
    })
  })
}

describe('amazon-cognito-identity-js (USER_SRP_AUTH)', SLOW, () => {
  it('signs in by username, refreshes, and signs out revoking the refresh token', async () => {
    const account = await registerUser(server)
    const user = new CognitoUser({ Username: account.username, Pool: pool })
    const outcome = await authenticate(user, account.username, account.password)
    if (outcome.kind !== 'success') throw new Error(JSON.stringify(outcome))
    const session = outcome.session
    expect(session.isValid()).toBe(true)
    expect(session.getIdToken().payload.email).toBe(account.email)
    expect(session.getAccessToken().payload.username).toBe(account.username)

    const refreshToken = session.getRefreshToken()
    const refreshed = await new Promise<CognitoUserSession>((resolve, reject) =>
      user.refreshSession(refreshToken, (error, next) => (error ? reject(error) : resolve(next))),
    )
    expect(refreshed.getAccessToken().payload.origin_jti).toBe(
      session.getAccessToken().payload.origin_jti,
    )

    await new Promise<void>((resolve, reject) =>
      user.signOut((error?: Error) => (error ? reject(error) : resolve())),
    )
    const cognito = sdkClient(server)
    await expect(
      cognito.send(
        new GetTokensFromRefreshTokenCommand({
          ClientId: CLIENT_ID,
          RefreshToken: (refreshToken as CognitoRefreshToken).getToken(),
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' })
    cognito.destroy()
  })

  it('signs in by email, learning the real username from USER_ID_FOR_SRP', async () => {
    const account = await registerUser(server)
    const user = new CognitoUser({ Username: account.email, Pool: pool })
    const outcome = await authenticate(user, account.email, account.password)
    if (outcome.kind !== 'success') throw new Error(JSON.stringify(outcome))
    expect(user.getUsername()).toBe(account.username)
    expect(outcome.session.getIdToken().payload['cognito:username']).toBe(account.username)
  })

  it('refuses a wrong password with NotAuthorizedException', async () => {
    const account = await registerUser(server)
    const user = new CognitoUser({ Username: account.username, Pool: pool })
    const outcome = await authenticate(user, account.username, 'Wrong#Horse9')
    expect(outcome.kind).toBe('failure')
    if (outcome.kind === 'failure') {
      expect(outcome.error.code).toBe('NotAuthorizedException')
      expect(outcome.error.message).toBe('Incorrect username or password.')
    }
  })

  it('completes NEW_PASSWORD_REQUIRED for a user an administrator created', async () => {
    const invitee = newAccount('nw')
    // Created in-process, through the function the HTTP operation uses.
    await server.app.identity.adminCreateUser({
      UserPoolId: POOL_ID,
      Username: invitee.username,
      TemporaryPassword: 'Temp#Horse123',
      MessageAction: 'SUPPRESS',
      UserAttributes: [{ Name: 'email', Value: invitee.email }],
    })
    const user = new CognitoUser({ Username: invitee.username, Pool: pool })
    const first = await authenticate(user, invitee.username, 'Temp#Horse123')
    expect(first).toMatchObject({
      kind: 'newPasswordRequired',
      attributes: { email: invitee.email },
    })
    const done = await new Promise<Outcome>((resolve) =>
      user.completeNewPasswordChallenge(
        'Chosen#Horse12',
        {},
        {
          onSuccess: (session) => resolve({ kind: 'success', session }),
          onFailure: (error) => resolve({ kind: 'failure', error }),
        },
      ),
    )
    expect(done.kind).toBe('success')
  })
})
