import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { N } from '#server/identity/srp.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { CLIENT_ID, call, POOL_ID, registerUser, srpClient, srpSignIn } from './support.ts'

let server: TestServer
let account: Awaited<ReturnType<typeof registerUser>>

beforeAll(async () => {
  server = await startTestServer()
  account = await registerUser(server)
})
afterAll(async () => {
  await server?.close()
})

function expectError(
  answer: { status: number; headers: Headers; body: Record<string, unknown> },
  type: string,
) {
  expect(answer.body.__type).toBe(type)
  expect(answer.headers.get('x-amzn-errortype')).toBe(type)
  expect(answer.status).toBe(400)
  expect(typeof answer.body.message).toBe('string')
  expect(JSON.stringify(answer.body)).not.toMatch(/ at .*\.ts:\d+/)
}

async function initiate(A: string, name = account.username) {
  return call(server, 'InitiateAuth', {
    AuthFlow: 'USER_SRP_AUTH',
    ClientId: CLIENT_ID,
    AuthParameters: { USERNAME: name, SRP_A: A },
  })
}

describe('the JSON protocol', () => {
  it.each(['/cognito-idp', '/cognito-idp/'])('answers at %s, with a request id', async (path) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.ConfirmSignUp',
      },
      body: JSON.stringify({
        ClientId: CLIENT_ID,
        Username: 'nobody_here',
        ConfirmationCode: '123456',
      }),
    })
    expect(response.status).toBe(400)
    expect(response.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/)
    expect(response.headers.get('x-amzn-errortype')).toBe('UserNotFoundException')
    expect((await response.json()).__type).toBe('UserNotFoundException')
  })

  it('accepts application/json too', async () => {
    const answer = await call(
      server,
      'ResendConfirmationCode',
      { ClientId: CLIENT_ID, Username: account.username },
      { 'content-type': 'application/json' },
    )
    expectError(answer, 'InvalidParameterException')
    expect(answer.body.message).toBe('User is already confirmed.')
  })

  it('answers a CORS preflight without authentication', async () => {
    const response = await fetch(`${server.url}/cognito-idp/`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-amz-target,x-amz-user-agent',
      },
    })
    expect(response.status).toBeLessThan(300)
    expect(response.headers.get('access-control-allow-origin')).toMatch(
      /^(\*|https:\/\/app\.example)$/,
    )
    const allowed = response.headers.get('access-control-allow-headers') ?? ''
    for (const header of [
      'content-type',
      'x-amz-target',
      'x-amz-user-agent',
      'cache-control',
      'amz-sdk-invocation-id',
      'amz-sdk-request',
    ]) {
      expect(allowed).toContain(header)
    }
    const exposed = response.headers.get('access-control-expose-headers') ?? ''
    expect(exposed).toContain('x-amzn-requestid')
    expect(exposed).toContain('x-amzn-errortype')
  })

  it('sets CORS headers on real answers', async () => {
    const answer = await call(
      server,
      'GetUser',
      { AccessToken: 'x' },
      { origin: 'https://app.example' },
    )
    expect(answer.headers.get('access-control-allow-origin')).toBeTruthy()
    expect(answer.headers.get('access-control-expose-headers')).toContain('x-amzn-errortype')
  })

  it('publishes the JWKS beneath the issuer', async () => {
    const response = await fetch(`${server.url}/cognito-idp/${POOL_ID}/.well-known/jwks.json`)
    expect(response.status).toBe(200)
    const jwks = await response.json()
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' })
    expect(typeof jwks.keys[0].kid).toBe('string')
    const other = await fetch(
      `${server.url}/cognito-idp/ap-northeast-1_Other/.well-known/jwks.json`,
    )
    expect(other.status).toBe(404)
  })

  it('keeps other paths and methods under the prefix away from the pages', async () => {
    const get = await fetch(`${server.url}/cognito-idp/`)
    expect(get.status).toBe(400)
    expect(get.headers.get('x-amzn-errortype')).toBe('UnknownOperationException')
    const deep = await fetch(`${server.url}/cognito-idp/some/where`, { method: 'POST' })
    expect(deep.status).toBe(404)
    expect(deep.headers.get('content-type')).toMatch(/json/)
  })
})

describe('bad input gets the Cognito error name, never a 500', () => {
  it('malformed JSON: SerializationException', async () => {
    expectError(await call(server, 'SignUp', '{"ClientId": '), 'SerializationException')
  })

  it.each([
    '',
    'AWSCognitoIdentityProviderService.NoSuchThing',
    'SomeOtherService.SignUp',
    'AWSCognitoIdentityProviderService.toString',
  ])('unknown target %j: UnknownOperationException', async (target) => {
    const response = await fetch(`${server.url}/cognito-idp/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': target },
      body: '{}',
    })
    expect(response.status).toBe(400)
    expect(response.headers.get('x-amzn-errortype')).toBe('UnknownOperationException')
  })

  it('missing parameters: InvalidParameterException', async () => {
    expectError(await call(server, 'SignUp', { ClientId: CLIENT_ID }), 'InvalidParameterException')
    expectError(
      await call(server, 'InitiateAuth', {
        AuthFlow: 'USER_SRP_AUTH',
        ClientId: CLIENT_ID,
        AuthParameters: { USERNAME: account.username },
      }),
      'InvalidParameterException',
    )
  })

  it('wrong-typed parameters: InvalidParameterException', async () => {
    expectError(
      await call(server, 'SignUp', { ClientId: CLIENT_ID, Username: 5, Password: ['x'] }),
      'InvalidParameterException',
    )
    expectError(await call(server, 'GetUser', []), 'InvalidParameterException')
  })

  it('oversized parameters and bodies: InvalidParameterException', async () => {
    expectError(
      await call(server, 'SignUp', {
        ClientId: CLIENT_ID,
        Username: 'a'.repeat(129),
        Password: 'Correct#Horse9',
      }),
      'InvalidParameterException',
    )
    expectError(
      await call(server, 'SignUp', {
        ClientId: CLIENT_ID,
        Username: 'bigbody',
        Password: 'x'.repeat(100_000),
      }),
      'InvalidParameterException',
    )
  })

  it('an unknown client id: ResourceNotFoundException', async () => {
    expectError(
      await call(server, 'ForgotPassword', { ClientId: 'someoneelse', Username: account.username }),
      'ResourceNotFoundException',
    )
  })

  it.each([
    ['0', '0'],
    ['N', N.toString(16)],
    ['2N', (2n * N).toString(16)],
    ['not hex', 'xyz'],
  ])('an SRP A of %s: InvalidParameterException', async (_name, A) => {
    expectError(await initiate(A), 'InvalidParameterException')
  })

  it('a replayed Session: NotAuthorizedException', async () => {
    const client = srpClient()
    const first = await initiate(client.A)
    const responses = client.respond(
      first.body.ChallengeParameters as Record<string, string>,
      account.password,
    )
    const request = {
      ChallengeName: 'PASSWORD_VERIFIER',
      ClientId: CLIENT_ID,
      Session: first.body.Session,
      ChallengeResponses: responses,
    }
    expect((await call(server, 'RespondToAuthChallenge', request)).status).toBe(200)
    const replay = await call(server, 'RespondToAuthChallenge', request)
    expectError(replay, 'NotAuthorizedException')
    expect(replay.body.message).toBe('Invalid session for the user, session is expired.')
  })

  it('an expired Session: NotAuthorizedException', async () => {
    const client = srpClient()
    const first = await initiate(client.A)
    await server.database.db
      .updateTable('identity_auth_sessions')
      .set({ expires_at: Date.now() - 1 })
      .execute()
    const answer = await call(server, 'RespondToAuthChallenge', {
      ChallengeName: 'PASSWORD_VERIFIER',
      ClientId: CLIENT_ID,
      Session: first.body.Session,
      ChallengeResponses: client.respond(
        first.body.ChallengeParameters as Record<string, string>,
        account.password,
      ),
    })
    expectError(answer, 'NotAuthorizedException')
    expect(answer.body.message).toBe('Invalid session for the user, session is expired.')
  })

  it('a made-up Session: NotAuthorizedException', async () => {
    const answer = await call(server, 'RespondToAuthChallenge', {
      ChallengeName: 'PASSWORD_VERIFIER',
      ClientId: CLIENT_ID,
      Session: randomBytes(64).toString('base64url'),
      ChallengeResponses: {
        USERNAME: account.username,
        PASSWORD_CLAIM_SECRET_BLOCK: 'AAAA',
        TIMESTAMP: 'Tue Nov 3 04:05:06 UTC 2026',
        PASSWORD_CLAIM_SIGNATURE: 'AAAA',
      },
    })
    expectError(answer, 'NotAuthorizedException')
  })

  it.each([
    ['ten minutes behind', -10 * 60_000],
    ['ten minutes ahead', 10 * 60_000],
  ])('a TIMESTAMP %s, even correctly signed: NotAuthorizedException', async (_name, offset) => {
    const answer = await srpSignIn(server, account.username, account.password, {
      timestamp: Date.now() + offset,
    })
    expectError(answer, 'NotAuthorizedException')
    // Four minutes off is still inside the tolerance.
    const near = await srpSignIn(server, account.username, account.password, {
      timestamp: Date.now() + Math.sign(offset) * 4 * 60_000,
    })
    expect(near.status).toBe(200)
  })

  it('still serves after all of that', async () => {
    expect((await srpSignIn(server, account.username, account.password)).status).toBe(200)
  })
})
