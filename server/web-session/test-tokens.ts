import { createSign, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto'
import { AMPLIFY_COOKIE_PREFIX } from './cookies.ts'

/**
 * RS256 tokens shaped like the user pool's, signed with a key made for the test: for tests
 * of cookie reading and verification. Never imported by the app.
 */
export type TestKey = { kid: string; privateKey: KeyObject; jwk: Record<string, unknown> }

export function makeTestKey(kid: string = randomUUID()): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }
  return { kid, privateKey, jwk }
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url')

export function signJwt(
  key: TestKey,
  payload: Record<string, unknown>,
  header: Record<string, unknown> = {},
): string {
  const head = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: key.kid, ...header }))
  const body = base64url(JSON.stringify(payload))
  const signature = createSign('RSA-SHA256').update(`${head}.${body}`).sign(key.privateKey)
  return `${head}.${body}.${base64url(signature)}`
}

export function tokenPair(
  key: TestKey,
  claims: {
    issuer: string
    clientId: string
    username: string
    sub?: string
    email?: string
    groups?: string[]
    expiresIn?: number
  },
) {
  const now = Math.floor(Date.now() / 1000)
  const sub = claims.sub ?? randomUUID()
  const exp = now + (claims.expiresIn ?? 3600)
  const common = {
    sub,
    iss: claims.issuer,
    iat: now,
    auth_time: now,
    exp,
    origin_jti: randomUUID(),
    event_id: randomUUID(),
    ...(claims.groups && { 'cognito:groups': claims.groups }),
  }
  const accessToken = signJwt(key, {
    ...common,
    token_use: 'access',
    client_id: claims.clientId,
    scope: 'aws.cognito.signin.user.admin',
    username: claims.username,
    jti: randomUUID(),
  })
  const idToken = signJwt(key, {
    ...common,
    token_use: 'id',
    aud: claims.clientId,
    'cognito:username': claims.username,
    ...(claims.email && { email: claims.email, email_verified: true }),
    jti: randomUUID(),
  })
  return { accessToken, idToken, sub }
}

/** The `Cookie` header a browser sends after Amplify stored these tokens. */
export function amplifyCookieHeader(
  clientId: string,
  username: string,
  tokens: { accessToken?: string; idToken?: string; refreshToken?: string },
): string {
  const base = `${AMPLIFY_COOKIE_PREFIX}.${clientId}`
  const name = (part: string) => encodeURIComponent(`${base}.${username}.${part}`)
  const pairs = [`${encodeURIComponent(`${base}.LastAuthUser`)}=${encodeURIComponent(username)}`]
  if (tokens.accessToken) pairs.push(`${name('accessToken')}=${tokens.accessToken}`)
  if (tokens.idToken) pairs.push(`${name('idToken')}=${tokens.idToken}`)
  if (tokens.refreshToken) pairs.push(`${name('refreshToken')}=${tokens.refreshToken}`)
  pairs.push(`${encodeURIComponent(`${base}.${username}.clockDrift`)}=0`)
  return pairs.join('; ')
}
