import {
  ChangePasswordCommand,
  ConfirmForgotPasswordCommand,
  ForgotPasswordCommand,
  GetTokensFromRefreshTokenCommand,
  GetUserCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  RevokeTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider'
import { JwtRsaVerifier } from 'aws-jwt-verify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { listOutbox } from '#server/mail/outbox.ts'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import {
  CLIENT_ID,
  call,
  latestCode,
  newAccount,
  POOL_ID,
  registerUser,
  sdkClient,
  signIn,
  srpClient,
  srpSignIn,
} from './support.ts'

const ADMIN = 'chief_editor'
let server: TestServer
let cognito: ReturnType<typeof sdkClient>
let issuer: string
let admin: Awaited<ReturnType<typeof registerUser>>

beforeAll(async () => {
  server = await startTestServer({ ADMIN_USERS: `${ADMIN}, boss@example.com` })
  cognito = sdkClient(server)
  issuer = loadConfig({ PORT: '0' }).identity.issuer
  admin = await registerUser(server, { ...newAccount(), username: ADMIN })
})
afterAll(async () => {
  cognito?.destroy()
  await server?.close()
})

/**
 * aws-jwt-verify as an app would use it, given the keys our JWKS endpoint publishes (it only
 * fetches over https itself, and the test server speaks plain http).
 */
async function verifiers() {
  const jwksUri = `${server.url}/cognito-idp/${POOL_ID}/.well-known/jwks.json`
  const jwks = await (await fetch(jwksUri)).json()
  const access = JwtRsaVerifier.create({ issuer, jwksUri, audience: null })
  const id = JwtRsaVerifier.create({ issuer, jwksUri, audience: CLIENT_ID })
  access.cacheJwks(jwks)
  id.cacheJwks(jwks)
  return { access, id }
}

const refresh = (RefreshToken: string) =>
  cognito.send(new GetTokensFromRefreshTokenCommand({ ClientId: CLIENT_ID, RefreshToken }))

describe('tokens', () => {
  it('are RS256 JWTs that aws-jwt-verify accepts, with Cognito’s claims', async () => {
    const account = await registerUser(server)
    const tokens = await signIn(server, account.username, account.password)
    const { access, id } = await verifiers()
    const accessClaims = await access.verify(tokens.AccessToken)
    const idClaims = await id.verify(tokens.IdToken)
    const now = Math.floor(Date.now() / 1000)
    expect(accessClaims).toMatchObject({
      sub: account.sub,
      iss: issuer,
      client_id: CLIENT_ID,
      token_use: 'access',
      scope: 'aws.cognito.signin.user.admin',
      username: account.username,
    })
    expect(Number(accessClaims.exp) - Number(accessClaims.iat)).toBe(3600)
    expect(Math.abs(Number(accessClaims.iat) - now)).toBeLessThan(5)
    expect(accessClaims.auth_time).toBe(accessClaims.iat)
    expect(accessClaims['cognito:groups']).toBeUndefined()
    expect(idClaims).toMatchObject({
      sub: account.sub,
      aud: CLIENT_ID,
      iss: issuer,
      token_use: 'id',
      email: account.email,
      email_verified: true,
      'cognito:username': account.username,
      origin_jti: accessClaims.origin_jti,
    })
    for (const claims of [accessClaims, idClaims]) {
      expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/)
      expect(claims.origin_jti).toMatch(/^[0-9a-f-]{36}$/)
      expect(claims.event_id).toMatch(/^[0-9a-f-]{36}$/)
    }
    expect(idClaims.jti).not.toBe(accessClaims.jti)
    const header = JSON.parse(
      Buffer.from(tokens.AccessToken.split('.')[0] as string, 'base64url').toString(),
    )
    expect(header).toMatchObject({ alg: 'RS256' })
    expect(tokens.RefreshToken.split('.')).toHaveLength(1)
  })

  it('puts configured administrators in the admin group', async () => {
    const byName = admin
    const byEmail = await registerUser(server, { ...newAccount(), email: 'boss@example.com' })
    const { access, id } = await verifiers()
    for (const account of [byName, byEmail]) {
      const tokens = await signIn(server, account.username, account.password)
      expect((await access.verify(tokens.AccessToken))['cognito:groups']).toEqual(['admin'])
      expect((await id.verify(tokens.IdToken))['cognito:groups']).toEqual(['admin'])
    }
  })

  it('refreshes through GetTokensFromRefreshToken and REFRESH_TOKEN_AUTH, keeping the session', async () => {
    const account = await registerUser(server)
    const tokens = await signIn(server, account.username, account.password)
    const { access } = await verifiers()
    const before = await access.verify(tokens.AccessToken)
    const viaNewOperation = await refresh(tokens.RefreshToken)
    const viaFlow = await cognito.send(
      new InitiateAuthCommand({
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: CLIENT_ID,
        AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken },
      }),
    )
    for (const result of [viaNewOperation.AuthenticationResult, viaFlow.AuthenticationResult]) {
      expect(result?.RefreshToken).toBeUndefined()
      const claims = await access.verify(result?.AccessToken as string)
      expect(claims.origin_jti).toBe(before.origin_jti)
      expect(claims.auth_time).toBe(before.auth_time)
      expect(claims.jti).not.toBe(before.jti)
    }
    await expect(refresh('not-a-refresh-token')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    })
  })
})

/** The session's access token and refresh token are both refused, as after GlobalSignOut. */
async function expectSessionEnded(tokens: { AccessToken: string; RefreshToken: string }) {
  await expect(refresh(tokens.RefreshToken)).rejects.toMatchObject({
    name: 'NotAuthorizedException',
  })
  await expect(
    cognito.send(new GetUserCommand({ AccessToken: tokens.AccessToken })),
  ).rejects.toMatchObject({
    name: 'NotAuthorizedException',
    message: 'Access Token has been revoked',
  })
}

describe('ending sessions', () => {
  it('RevokeToken ends the refresh token and the access tokens of its session', async () => {
    const account = await registerUser(server)
    const first = await signIn(server, account.username, account.password)
    const second = await signIn(server, account.username, account.password)
    await cognito.send(new RevokeTokenCommand({ ClientId: CLIENT_ID, Token: first.RefreshToken }))
    await expect(refresh(first.RefreshToken)).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Refresh Token has been revoked',
    })
    await expect(
      cognito.send(new GetUserCommand({ AccessToken: first.AccessToken })),
    ).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Access Token has been revoked',
    })
    // The other session is untouched.
    expect(
      (await cognito.send(new GetUserCommand({ AccessToken: second.AccessToken }))).Username,
    ).toBe(account.username)
    expect((await refresh(second.RefreshToken)).AuthenticationResult?.AccessToken).toBeTruthy()
    // Revoking again, or an unknown token, is not an error; an access token is the wrong kind.
    await cognito.send(new RevokeTokenCommand({ ClientId: CLIENT_ID, Token: first.RefreshToken }))
    await expect(
      cognito.send(new RevokeTokenCommand({ ClientId: CLIENT_ID, Token: second.AccessToken })),
    ).rejects.toMatchObject({ name: 'UnsupportedTokenTypeException' })
  })

  it('GlobalSignOut ends every session of the user', async () => {
    const account = await registerUser(server)
    const sessions = [
      await signIn(server, account.username, account.password),
      await signIn(server, account.username, account.password),
    ]
    await cognito.send(new GlobalSignOutCommand({ AccessToken: sessions[0]?.AccessToken }))
    for (const tokens of sessions) if (tokens) await expectSessionEnded(tokens)
    // A new sign-in works at once.
    const fresh = await signIn(server, account.username, account.password)
    expect(
      (await cognito.send(new GetUserCommand({ AccessToken: fresh.AccessToken }))).Username,
    ).toBe(account.username)
  })

  it('a password change ends every other session; a reset ends them all, pages included', async () => {
    const account = await registerUser(server)
    const [current, other] = [
      await signIn(server, account.username, account.password),
      await signIn(server, account.username, account.password),
    ]
    const newPassword = 'Another#Horse10'
    await cognito.send(
      new ChangePasswordCommand({
        AccessToken: current.AccessToken,
        PreviousPassword: account.password,
        ProposedPassword: newPassword,
      }),
    )
    await expectSessionEnded(other)
    // The session that changed the password goes on, refresh included.
    expect(
      (await cognito.send(new GetUserCommand({ AccessToken: current.AccessToken }))).Username,
    ).toBe(account.username)
    expect((await refresh(current.RefreshToken)).AuthenticationResult?.AccessToken).toBeTruthy()

    // The web app's own check of the session cookies (pages and /api) takes the reset too.
    const cookie = amplifyCookieHeader(CLIENT_ID, account.username, {
      accessToken: current.AccessToken,
      idToken: current.IdToken,
      refreshToken: current.RefreshToken,
    })
    const settings = () =>
      fetch(`${server.url}/settings`, { headers: { cookie }, redirect: 'manual' })
    expect((await settings()).status).toBe(200)
    await cognito.send(
      new ForgotPasswordCommand({ ClientId: CLIENT_ID, Username: account.username }),
    )
    await cognito.send(
      new ConfirmForgotPasswordCommand({
        ClientId: CLIENT_ID,
        Username: account.username,
        ConfirmationCode: await latestCode(server, account.email),
        Password: account.password,
      }),
    )
    await expectSessionEnded(current)
    expect((await settings()).status).toBe(302)
    const bearer = await fetch(`${server.url}/api/courses`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${current.AccessToken}`,
      },
      body: JSON.stringify({ title: 'リセット後' }),
    })
    expect(bearer.status).toBe(401)
    // The new password signs in at once.
    const fresh = await signIn(server, account.username, account.password)
    expect(
      (await cognito.send(new GetUserCommand({ AccessToken: fresh.AccessToken }))).Username,
    ).toBe(account.username)
  })

  it('refuses forged, foreign and expired access tokens', async () => {
    const account = await registerUser(server)
    const { AccessToken, IdToken } = await signIn(server, account.username, account.password)
    const [header, body] = AccessToken.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString())
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, username: 'someone' })).toString('base64url')}.${AccessToken.split('.')[2]}`
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${body}.`
    for (const token of [forged, unsigned, IdToken, 'abc']) {
      await expect(cognito.send(new GetUserCommand({ AccessToken: token }))).rejects.toMatchObject({
        name: expect.stringMatching(/NotAuthorizedException|InvalidParameterException/),
      })
    }
  })
})

describe('administrators', () => {
  it('create users over HTTP with a Bearer token; the user must choose a new password', async () => {
    const member = await registerUser(server)
    const token = (await signIn(server, admin.username, admin.password)).AccessToken
    const invitee = newAccount('inv')
    const request = {
      UserPoolId: POOL_ID,
      Username: invitee.username,
      UserAttributes: [
        { Name: 'email', Value: invitee.email },
        { Name: 'email_verified', Value: 'true' },
      ],
    }
    const anonymous = await call(server, 'AdminCreateUser', request)
    expect(anonymous.body.__type).toBe('NotAuthorizedException')
    const memberTokens = await signIn(server, member.username, member.password)
    const notAdmin = await call(server, 'AdminCreateUser', request, {
      authorization: `Bearer ${memberTokens.AccessToken}`,
    })
    expect(notAdmin.body.__type).toBe('NotAuthorizedException')

    const created = await call(server, 'AdminCreateUser', request, {
      authorization: `Bearer ${token}`,
    })
    expect(created.status).toBe(200)
    expect(created.body.User).toMatchObject({
      Username: invitee.username,
      UserStatus: 'FORCE_CHANGE_PASSWORD',
      Enabled: true,
    })
    const profile = await server.database.db
      .selectFrom('users')
      .select('username')
      .where('username', '=', invitee.username)
      .executeTakeFirst()
    expect(profile).toBeDefined()
    const [invitation] = await listOutbox(server.database.db, { to: invitee.email })
    const temporary = /仮パスワード: (\S+)/.exec(invitation?.text ?? '')?.[1] as string
    expect(temporary).toBeTruthy()

    // Sign in with the temporary password: NEW_PASSWORD_REQUIRED.
    const client = srpClient()
    const initiate = await cognito.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_SRP_AUTH',
        ClientId: CLIENT_ID,
        AuthParameters: { USERNAME: invitee.email, SRP_A: client.A },
      }),
    )
    const verified = await cognito.send(
      new RespondToAuthChallengeCommand({
        ChallengeName: 'PASSWORD_VERIFIER',
        ClientId: CLIENT_ID,
        Session: initiate.Session,
        ChallengeResponses: client.respond(initiate.ChallengeParameters ?? {}, temporary),
      }),
    )
    expect(verified.ChallengeName).toBe('NEW_PASSWORD_REQUIRED')
    expect(JSON.parse(verified.ChallengeParameters?.userAttributes ?? '{}')).toEqual({
      email: invitee.email,
    })
    expect(JSON.parse(verified.ChallengeParameters?.requiredAttributes ?? 'null')).toEqual([])
    const answer = (NEW_PASSWORD: string) =>
      cognito.send(
        new RespondToAuthChallengeCommand({
          ChallengeName: 'NEW_PASSWORD_REQUIRED',
          ClientId: CLIENT_ID,
          Session: verified.Session,
          ChallengeResponses: {
            USERNAME: invitee.username,
            NEW_PASSWORD,
            'userAttributes.name': '新人',
          },
        }),
      )
    // A password the policy refuses can be corrected within the same session.
    await expect(answer('weak')).rejects.toMatchObject({ name: 'InvalidPasswordException' })
    const done = await answer('Chosen#Horse12')
    expect(done.AuthenticationResult?.AccessToken).toBeTruthy()
    expect((await srpSignIn(server, invitee.username, 'Chosen#Horse12')).status).toBe(200)
    expect((await srpSignIn(server, invitee.username, temporary)).status).toBe(400)
  })

  it('are the only ones the SDK’s signed AdminCreateUser would reach', async () => {
    const answer = await call(
      server,
      'AdminCreateUser',
      { UserPoolId: POOL_ID, Username: 'sneaky' },
      {
        authorization:
          'AWS4-HMAC-SHA256 Credential=AKID/20260101/ap-northeast-1/cognito-idp/aws4_request',
      },
    )
    expect(answer.body.__type).toBe('NotAuthorizedException')
  })
})
