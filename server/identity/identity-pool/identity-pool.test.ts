import { createSign, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto'
import {
  CognitoIdentityClient,
  GetCredentialsForIdentityCommand,
  GetIdCommand,
} from '@aws-sdk/client-cognito-identity'
import { JwtVerifier } from 'aws-jwt-verify'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTemporaryDatabase, type TemporaryDatabase } from '#db/test-support.ts'
import { loadConfig } from '#server/config.ts'
import { createSecretBox } from '#server/identity/secret-box.ts'
import { findCredentials } from './credentials.ts'
import { userPoolSubOf } from './identities.ts'
import { type IdTokenVerifier, identityPoolPlugin } from './index.ts'

const settings = loadConfig({}).identity
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const kid = 'test-key'

/** An id token as our user pool signs them (RS256, Cognito's claims). */
function idToken(sub: string, overrides: Record<string, unknown> = {}): string {
  const now = Math.floor(Date.now() / 1000)
  const header = Buffer.from(JSON.stringify({ alg: 'RS256', kid, typ: 'JWT' })).toString(
    'base64url',
  )
  const payload = Buffer.from(
    JSON.stringify({
      sub,
      aud: settings.clientId,
      iss: settings.issuer,
      token_use: 'id',
      'cognito:username': 'hana',
      iat: now,
      exp: now + 3600,
      ...overrides,
    }),
  ).toString('base64url')
  const signature = createSign('RSA-SHA256')
    .update(`${header}.${payload}`)
    .sign(privateKey, 'base64url')
  return `${header}.${payload}.${signature}`
}

// The real verifier, given our key set directly instead of fetching it.
const jwtVerifier = JwtVerifier.create({
  issuer: settings.issuer,
  audience: settings.clientId,
  jwksUri: `${settings.issuer}/.well-known/jwks.json`,
  customJwtCheck: ({ payload }) => {
    if (payload.token_use !== 'id') throw new Error('not an id token')
  },
})
jwtVerifier.cacheJwks({
  keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }],
} as never)
const verifyIdToken: IdTokenVerifier = async (token) => {
  try {
    const payload = await jwtVerifier.verify(token)
    return typeof payload.sub === 'string' ? { sub: payload.sub } : undefined
  } catch {
    return undefined
  }
}

let database: TemporaryDatabase
let app: FastifyInstance
let client: CognitoIdentityClient
const box = createSecretBox(randomBytes(32))
const subOf = (identityId: string) => userPoolSubOf(database.db, settings, identityId)
const provider = settings.issuer.replace(/^https?:\/\//, '')

async function start(guestCredentials = true) {
  app = Fastify()
  await app.register(identityPoolPlugin, {
    prefix: '/cognito-identity',
    settings: { ...settings, guestCredentials },
    db: database.db,
    secretBox: box,
    verifyIdToken,
  })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  // The unmodified AWS SDK client, pointed at our endpoint; these calls are unsigned.
  client = new CognitoIdentityClient({
    region: settings.region,
    endpoint: `${url}/cognito-identity`,
  })
}

beforeEach(async () => {
  database = await openTemporaryDatabase()
})
afterEach(async () => {
  client?.destroy()
  await app?.close()
  await database.remove()
})

describe('guests', () => {
  it('get an identity id and one-hour credentials the object store can look up', async () => {
    await start()
    const { IdentityId } = await client.send(
      new GetIdCommand({ IdentityPoolId: settings.identityPoolId }),
    )
    expect(IdentityId).toMatch(new RegExp(`^${settings.region}:[0-9a-f-]{36}$`))
    const before = Date.now()
    const { Credentials } = await client.send(new GetCredentialsForIdentityCommand({ IdentityId }))
    expect(Credentials?.AccessKeyId).toMatch(/^ASIA[A-Z2-7]{16}$/)
    const expiration = Credentials?.Expiration?.getTime() ?? 0
    expect(expiration).toBeGreaterThan(before + 59 * 60_000)
    expect(expiration).toBeLessThanOrEqual(before + 61 * 60_000)

    const owner = await findCredentials(
      database.db,
      box,
      subOf,
      Credentials?.AccessKeyId as string,
      Credentials?.SessionToken as string,
    )
    expect(owner).toMatchObject({
      identityId: IdentityId,
      authenticated: false,
      secretAccessKey: Credentials?.SecretKey,
    })
    expect(
      await findCredentials(database.db, box, subOf, Credentials?.AccessKeyId as string, 'forged'),
    ).toBeUndefined()
  })

  it('are refused when guest access is disabled', async () => {
    await start(false)
    await expect(
      client.send(new GetIdCommand({ IdentityPoolId: settings.identityPoolId })),
    ).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    })
  })
})

describe('signed-in users', () => {
  it('keep one identity per user, under either provider name, with authenticated credentials', async () => {
    await start()
    const sub = randomUUID()
    const token = idToken(sub)
    const first = await client.send(
      new GetIdCommand({ IdentityPoolId: settings.identityPoolId, Logins: { [provider]: token } }),
    )
    const awsForm = `cognito-idp.${settings.region}.amazonaws.com/${settings.userPoolId}`
    const second = await client.send(
      new GetIdCommand({ IdentityPoolId: settings.identityPoolId, Logins: { [awsForm]: token } }),
    )
    expect(second.IdentityId).toBe(first.IdentityId)

    const { Credentials } = await client.send(
      new GetCredentialsForIdentityCommand({
        IdentityId: first.IdentityId,
        Logins: { [provider]: token },
      }),
    )
    const owner = await findCredentials(
      database.db,
      box,
      subOf,
      Credentials?.AccessKeyId as string,
      Credentials?.SessionToken as string,
    )
    expect(owner?.authenticated).toBe(true)
  })

  it('cannot take credentials for an identity without its login, or for someone else’s', async () => {
    await start()
    const mine = await client.send(
      new GetIdCommand({
        IdentityPoolId: settings.identityPoolId,
        Logins: { [provider]: idToken(randomUUID()) },
      }),
    )
    await expect(
      client.send(new GetCredentialsForIdentityCommand({ IdentityId: mine.IdentityId })),
    ).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    })
    await expect(
      client.send(
        new GetCredentialsForIdentityCommand({
          IdentityId: mine.IdentityId,
          Logins: { [provider]: idToken(randomUUID()) },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' })
  })

  it('keeps a guest’s identity when the guest signs in', async () => {
    await start()
    const guest = await client.send(new GetIdCommand({ IdentityPoolId: settings.identityPoolId }))
    const token = idToken(randomUUID())
    const result = await client.send(
      new GetCredentialsForIdentityCommand({
        IdentityId: guest.IdentityId,
        Logins: { [provider]: token },
      }),
    )
    expect(result.IdentityId).toBe(guest.IdentityId)
    const again = await client.send(
      new GetIdCommand({ IdentityPoolId: settings.identityPoolId, Logins: { [provider]: token } }),
    )
    expect(again.IdentityId).toBe(guest.IdentityId)
  })

  it('merges a guest into the identity the login already has (a returning user, new browser)', async () => {
    await start()
    const token = idToken(randomUUID())
    const logins = { [provider]: token }
    const known = await client.send(
      new GetIdCommand({ IdentityPoolId: settings.identityPoolId, Logins: logins }),
    )
    const guest = await client.send(new GetIdCommand({ IdentityPoolId: settings.identityPoolId }))
    const guestCredentials = await client.send(
      new GetCredentialsForIdentityCommand({ IdentityId: guest.IdentityId }),
    )
    const merged = await client.send(
      new GetCredentialsForIdentityCommand({ IdentityId: guest.IdentityId, Logins: logins }),
    )
    expect(merged.IdentityId).toBe(known.IdentityId)
    const owner = await findCredentials(
      database.db,
      box,
      subOf,
      String(merged.Credentials?.AccessKeyId),
      String(merged.Credentials?.SessionToken),
    )
    expect(owner).toMatchObject({ identityId: known.IdentityId, authenticated: true })
    // The guest identity is gone with its credentials.
    expect(
      await findCredentials(
        database.db,
        box,
        subOf,
        String(guestCredentials.Credentials?.AccessKeyId),
        String(guestCredentials.Credentials?.SessionToken),
      ),
    ).toBeUndefined()
    await expect(
      client.send(new GetCredentialsForIdentityCommand({ IdentityId: guest.IdentityId })),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' })
    // Another user's login never reaches that identity, merged or not.
    await expect(
      client.send(
        new GetCredentialsForIdentityCommand({
          IdentityId: known.IdentityId,
          Logins: { [provider]: idToken(randomUUID()) },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' })
  })

  it.each([
    [
      'a token signed by another key',
      () => idToken(randomUUID()).replace(/\.[^.]+$/, '.c2lnbmF0dXJl'),
    ],
    ['an expired token', () => idToken(randomUUID(), { exp: Math.floor(Date.now() / 1000) - 10 })],
    ['an access token', () => idToken(randomUUID(), { token_use: 'access' })],
    ['a token for another app', () => idToken(randomUUID(), { aud: 'someone-else' })],
    ['garbage', () => 'not-a-jwt'],
  ])('refuses %s', async (_name, token) => {
    await start()
    await expect(
      client.send(
        new GetIdCommand({
          IdentityPoolId: settings.identityPoolId,
          Logins: { [provider]: token() },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' })
  })
})

describe('errors in the service’s own shapes', () => {
  it('names an unknown pool, identity and provider', async () => {
    await start()
    await expect(
      client.send(
        new GetIdCommand({
          IdentityPoolId: `${settings.region}:00000000-0000-4000-8000-00000000dead`,
        }),
      ),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' })
    await expect(
      client.send(
        new GetCredentialsForIdentityCommand({
          IdentityId: `${settings.region}:00000000-0000-4000-8000-00000000beef`,
        }),
      ),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' })
    await expect(
      client.send(
        new GetIdCommand({
          IdentityPoolId: settings.identityPoolId,
          Logins: { 'accounts.google.com': 'x' },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' })
  })

  it('answers malformed JSON, unknown targets and bad parameters without a 500', async () => {
    await start()
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/cognito-identity/`
    const call = (target: string, body: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': target },
        body,
      })
    const cases = [
      [
        await call('AWSCognitoIdentityService.GetId', '{"IdentityPoolId":'),
        'SerializationException',
      ],
      [await call('AWSCognitoIdentityService.Nope', '{}'), 'UnknownOperationException'],
      [await call('AWSCognitoIdentityService.toString', '{}'), 'UnknownOperationException'],
      [
        await call('AWSCognitoIdentityService.GetId', '{"IdentityPoolId": 5}'),
        'InvalidParameterException',
      ],
      [
        await call(
          'AWSCognitoIdentityService.GetId',
          JSON.stringify({ IdentityPoolId: 'x'.repeat(100) }),
        ),
        'InvalidParameterException',
      ],
      [
        await call(
          'AWSCognitoIdentityService.GetId',
          JSON.stringify({ IdentityPoolId: 'x', Logins: { a: 'b'.repeat(70_000) } }),
        ),
        'InvalidParameterException',
      ],
    ] as const
    for (const [response, type] of cases) {
      expect(response.status).toBe(400)
      expect(response.headers.get('x-amzn-errortype')).toBe(type)
      expect(response.headers.get('x-amzn-requestid')).toBeTruthy()
      expect((await response.json()).__type).toBe(type)
    }
  })

  it('answers CORS preflight', async () => {
    await start()
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/cognito-identity/`
    const response = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:3000')
    expect(response.headers.get('access-control-allow-headers')).toContain('x-amz-target')
  })
})

describe('credentials over time', () => {
  it('stop being found once they expire, and expired ones are deleted', async () => {
    const { issueCredentials, deleteExpiredCredentials } = await import('./credentials.ts')
    const { createGuestIdentity } = await import('./identities.ts')
    const identity = await createGuestIdentity(database.db, settings.region, 0)
    const credentials = await issueCredentials(
      database.db,
      box,
      { identityId: identity.identityId, authenticated: false },
      1_000,
    )
    const find = (now: number) =>
      findCredentials(
        database.db,
        box,
        subOf,
        credentials.AccessKeyId,
        credentials.SessionToken,
        now,
      )
    expect(await find(1_000 + 3_599_999)).toBeDefined()
    expect(await find(1_000 + 3_600_000)).toBeUndefined()
    expect(await deleteExpiredCredentials(database.db, 1_000 + 3_600_000)).toBe(1)
  })
})
