import {
  AssociateSoftwareTokenCommand,
  GetUserCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider'
import {
  AuthenticationDetails,
  CognitoAccessToken,
  CognitoIdToken,
  CognitoRefreshToken,
  CognitoUser,
  CognitoUserPool,
  CognitoUserSession,
} from 'amazon-cognito-identity-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import {
  CLIENT_ID,
  latestCode,
  nextTotpCode,
  POOL_ID,
  registerUser,
  sdkClient,
  signIn,
  wrongTotpCode,
} from './support.ts'

// amazon-cognito-identity-js does SRP in JavaScript (seconds per sign-in): few such sign-ins.
const SLOW = { timeout: 180_000 }

let server: TestServer
let required: TestServer

beforeAll(async () => {
  ;[server, required] = await Promise.all([
    startTestServer(),
    startTestServer({ USER_POOL_MFA: 'on' }),
  ])
})
afterAll(async () => {
  await Promise.all([server?.close(), required?.close()])
})

const poolOf = (at: TestServer) =>
  new CognitoUserPool({
    UserPoolId: POOL_ID,
    ClientId: CLIENT_ID,
    endpoint: `${at.url}/cognito-idp/`,
  })

type Step =
  | { kind: 'success'; session: CognitoUserSession }
  | { kind: 'failure'; error: Error & { code?: string } }
  | {
      kind: 'totpRequired' | 'mfaRequired' | 'selectMFAType' | 'mfaSetup'
      parameters: Record<string, string>
    }

/** The callbacks of amazon-cognito-identity-js, each resolving the step it reports. */
function callbacks(resolve: (step: Step) => void) {
  return {
    onSuccess: (session: CognitoUserSession) => resolve({ kind: 'success', session }),
    onFailure: (error: Error & { code?: string }) => resolve({ kind: 'failure', error }),
    totpRequired: (_name: string, parameters: Record<string, string>) =>
      resolve({ kind: 'totpRequired', parameters }),
    mfaRequired: (_name: string, parameters: Record<string, string>) =>
      resolve({ kind: 'mfaRequired', parameters }),
    selectMFAType: (_name: string, parameters: Record<string, string>) =>
      resolve({ kind: 'selectMFAType', parameters }),
    mfaSetup: (_name: string, parameters: Record<string, string>) =>
      resolve({ kind: 'mfaSetup', parameters }),
  }
}

const authenticate = (user: CognitoUser, name: string, password: string) =>
  new Promise<Step>((resolve) =>
    user.authenticateUser(
      new AuthenticationDetails({ Username: name, Password: password }),
      callbacks(resolve),
    ),
  )

const sendCode = (user: CognitoUser, code: string, type: 'SMS_MFA' | 'SOFTWARE_TOKEN_MFA') =>
  new Promise<Step>((resolve) => user.sendMFACode(code, callbacks(resolve), type))

/** A CognitoUser already signed in (through the fast test client), to skip the slow SRP. */
async function signedInUser(at: TestServer, account: { username: string; password: string }) {
  const tokens = await signIn(at, account.username, account.password)
  const user = new CognitoUser({ Username: account.username, Pool: poolOf(at) })
  user.setSignInUserSession(
    new CognitoUserSession({
      IdToken: new CognitoIdToken({ IdToken: tokens.IdToken }),
      AccessToken: new CognitoAccessToken({ AccessToken: tokens.AccessToken }),
      RefreshToken: new CognitoRefreshToken({ RefreshToken: tokens.RefreshToken }),
    }),
  )
  return { user, tokens }
}

/** Associates and verifies an authenticator app through the library; returns its secret. */
async function setUpTotp(user: CognitoUser): Promise<string> {
  const secret = await new Promise<string>((resolve, reject) =>
    user.associateSoftwareToken({ associateSecretCode: resolve, onFailure: reject }),
  )
  expect(secret).toMatch(/^[A-Z2-7]+$/)
  const code = nextTotpCode(secret, server.clock)
  await new Promise((resolve, reject) =>
    user.verifySoftwareToken(code, 'phone', { onSuccess: resolve, onFailure: reject }),
  )
  return secret
}

describe('TOTP and SMS MFA with amazon-cognito-identity-js', SLOW, () => {
  it('sets up an authenticator app, then signs in answering SOFTWARE_TOKEN_MFA', async () => {
    const account = await registerUser(server)
    const { user: setup } = await signedInUser(server, account)
    const secret = await setUpTotp(setup)
    await new Promise((resolve, reject) =>
      setup.setUserMfaPreference(null, { Enabled: true, PreferredMfa: true }, (error, result) =>
        error ? reject(error) : resolve(result),
      ),
    )
    const data = await new Promise<Record<string, unknown>>((resolve, reject) =>
      setup.getUserData((error, result) => (error ? reject(error) : resolve(result as never)), {
        bypassCache: true,
      }),
    )
    expect(data).toMatchObject({
      UserMFASettingList: ['SOFTWARE_TOKEN_MFA'],
      PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA',
    })

    const user = new CognitoUser({ Username: account.username, Pool: poolOf(server) })
    expect((await authenticate(user, account.username, account.password)).kind).toBe('totpRequired')
    const wrong = await sendCode(user, wrongTotpCode(secret, server.clock), 'SOFTWARE_TOKEN_MFA')
    expect(wrong).toMatchObject({ kind: 'failure', error: { code: 'CodeMismatchException' } })
    const right = await sendCode(user, nextTotpCode(secret, server.clock), 'SOFTWARE_TOKEN_MFA')
    if (right.kind !== 'success') throw new Error(JSON.stringify(right))
    expect(right.session.getAccessToken().payload.username).toBe(account.username)
  })

  it('offers SELECT_MFA_TYPE when both are on, and mails the SMS_MFA code', async () => {
    const account = await registerUser(server)
    const { user: setup } = await signedInUser(server, account)
    await setUpTotp(setup)
    await new Promise((resolve, reject) =>
      setup.setUserMfaPreference(
        { Enabled: true, PreferredMfa: false },
        { Enabled: true, PreferredMfa: false },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    )
    const user = new CognitoUser({ Username: account.username, Pool: poolOf(server) })
    const select = await authenticate(user, account.username, account.password)
    expect(select).toMatchObject({
      kind: 'selectMFAType',
      parameters: { MFAS_CAN_CHOOSE: '["SMS_MFA","SOFTWARE_TOKEN_MFA"]' },
    })
    const sms = await new Promise<Step>((resolve) =>
      user.sendMFASelectionAnswer('SMS_MFA', callbacks(resolve)),
    )
    expect(sms).toMatchObject({
      kind: 'mfaRequired',
      parameters: { CODE_DELIVERY_DELIVERY_MEDIUM: 'EMAIL' },
    })
    const done = await sendCode(user, await latestCode(server, account.email), 'SMS_MFA')
    expect(done.kind).toBe('success')
  })

  it('sets up TOTP during sign-in when the pool requires MFA (MFA_SETUP)', async () => {
    const account = await registerUser(required)
    const user = new CognitoUser({ Username: account.username, Pool: poolOf(required) })
    const setup = await authenticate(user, account.username, account.password)
    expect(setup).toMatchObject({
      kind: 'mfaSetup',
      parameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' },
    })
    const secret = await new Promise<string>((resolve, reject) =>
      user.associateSoftwareToken({ associateSecretCode: resolve, onFailure: reject }),
    )
    const done = await new Promise<Step>((resolve) =>
      user.verifySoftwareToken(wrongTotpCode(secret, server.clock), 'phone', callbacks(resolve)),
    ).then(async (first) => {
      expect(first).toMatchObject({
        kind: 'failure',
        error: { code: 'EnableSoftwareTokenMFAException' },
      })
      const code = nextTotpCode(secret, server.clock)
      return new Promise<Step>((resolve) =>
        user.verifySoftwareToken(code, 'phone', callbacks(resolve)),
      )
    })
    if (done.kind !== 'success') throw new Error(JSON.stringify(done))
    expect(done.session.isValid()).toBe(true)
  })
})

describe('CUSTOM_AUTH with amazon-cognito-identity-js', () => {
  it('signs in by the emailed code through customChallenge', async () => {
    const account = await registerUser(server)
    const user = new CognitoUser({ Username: account.username, Pool: poolOf(server) })
    user.setAuthenticationFlowType('CUSTOM_AUTH')
    const challenge = await new Promise<Record<string, string> | Error>((resolve) =>
      user.initiateAuth(new AuthenticationDetails({ Username: account.username }), {
        onSuccess: () => resolve(new Error('signed in without a code')),
        onFailure: resolve,
        customChallenge: resolve,
      }),
    )
    expect(challenge).toMatchObject({
      USERNAME: account.username,
      email: expect.stringMatching(/\*\*\*@/),
    })
    const answer = (code: string) =>
      new Promise<Step | { kind: 'custom' }>((resolve) =>
        user.sendCustomChallengeAnswer(code, {
          ...callbacks(resolve),
          customChallenge: () => resolve({ kind: 'custom' }),
        }),
      )
    const code = await latestCode(server, account.email)
    expect((await answer(code === '000000' ? '111111' : '000000')).kind).toBe('custom')
    const done = await answer(code)
    if (done.kind !== 'success') throw new Error(JSON.stringify(done))
    expect(done.session.getIdToken().payload['cognito:username']).toBe(account.username)
  })
})

describe('MFA errors through the AWS SDK', () => {
  it('answers Cognito error names for bad codes, sessions and parameters', async () => {
    const cognito = sdkClient(server)
    const account = await registerUser(server)
    const tokens = await signIn(server, account.username, account.password)
    const AccessToken = tokens.AccessToken
    await expect(cognito.send(new AssociateSoftwareTokenCommand({}))).rejects.toMatchObject({
      name: 'InvalidParameterException',
    })
    await expect(
      cognito.send(new AssociateSoftwareTokenCommand({ Session: 'S'.repeat(60) })),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' })
    await expect(
      cognito.send(new VerifySoftwareTokenCommand({ AccessToken, UserCode: '123456' })),
    ).rejects.toMatchObject({ name: 'SoftwareTokenMFANotFoundException' })
    const { SecretCode } = await cognito.send(new AssociateSoftwareTokenCommand({ AccessToken }))
    const secret = SecretCode as string
    await expect(
      cognito.send(new VerifySoftwareTokenCommand({ AccessToken, UserCode: 'abcdef' })),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' })
    await expect(
      cognito.send(
        new VerifySoftwareTokenCommand({
          AccessToken,
          UserCode: wrongTotpCode(secret, server.clock),
        }),
      ),
    ).rejects.toMatchObject({ name: 'EnableSoftwareTokenMFAException' })
    const verifyCode = nextTotpCode(secret, server.clock)
    expect(
      (await cognito.send(new VerifySoftwareTokenCommand({ AccessToken, UserCode: verifyCode })))
        .Status,
    ).toBe('SUCCESS')
    await cognito.send(
      new SetUserMFAPreferenceCommand({
        AccessToken,
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      }),
    )
    expect((await cognito.send(new GetUserCommand({ AccessToken }))).PreferredMfaSetting).toBe(
      'SOFTWARE_TOKEN_MFA',
    )

    const challenge = await cognito.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: CLIENT_ID,
        AuthParameters: { USERNAME: account.username, PASSWORD: account.password },
      }),
    )
    expect(challenge.ChallengeName).toBe('SOFTWARE_TOKEN_MFA')
    const respond = (code: string, Session = challenge.Session) =>
      cognito.send(
        new RespondToAuthChallengeCommand({
          ClientId: CLIENT_ID,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session,
          ChallengeResponses: { USERNAME: account.username, SOFTWARE_TOKEN_MFA_CODE: code },
        }),
      )
    // The code that verified the app is spent: replaying it is a mismatch.
    await expect(respond(verifyCode)).rejects.toMatchObject({ name: 'CodeMismatchException' })
    await expect(respond(nextTotpCode(secret, server.clock), 'E'.repeat(60))).rejects.toMatchObject(
      {
        name: 'NotAuthorizedException',
      },
    )
    cognito.destroy()
  })
})
