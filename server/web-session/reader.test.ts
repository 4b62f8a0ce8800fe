import { describe, expect, it } from 'vitest'
import { parseCookies, readSessionCookies } from './cookies.ts'
import { createSessionReader, jwksTokenVerifier } from './reader.ts'
import { amplifyCookieHeader, makeTestKey, signJwt, tokenPair } from './test-tokens.ts'

const ISSUER = 'http://localhost:3000/cognito-idp/ap-northeast-1_TechLabPool'
const CLIENT_ID = 'techlabwebclient0000000000'
const key = makeTestKey()
const otherKey = makeTestKey(key.kid) // same kid, different key: a forgery

function verifier(jwks = { keys: [key.jwk] }) {
  return jwksTokenVerifier({
    kind: 'issuer',
    issuer: ISSUER,
    clientId: CLIENT_ID,
    jwks: jwks as never,
  })
}

function reader(jwks = { keys: [key.jwk] }) {
  return createSessionReader({ clientId: CLIENT_ID, verify: verifier(jwks) })
}

/** A reader whose every token check is first told to `spy`. */
function watchedReader(spy: (use: string, options?: { liveSession?: string }) => void) {
  const verify = verifier()
  return createSessionReader({
    clientId: CLIENT_ID,
    verify: async (token, use, options) => {
      spy(use, options)
      return verify(token, use)
    },
  })
}

function request(cookie: string | undefined) {
  return new Request('http://localhost/', cookie ? { headers: { cookie } } : {})
}

describe('reading Amplify cookies', () => {
  it('decodes cookie names and values as js-cookie writes them', () => {
    const cookies = parseCookies('a%2Eb=x%20y; plain=1; bad=%E0%A4%A; quoted="v"')
    expect(cookies.get('a.b')).toBe('x y')
    expect(cookies.get('plain')).toBe('1')
    expect(cookies.get('bad')).toBe('%E0%A4%A')
    expect(cookies.get('quoted')).toBe('v')
  })

  it('finds the tokens of the last signed-in user of this client only', () => {
    const header = `${amplifyCookieHeader(CLIENT_ID, 'hana', { accessToken: 'a.b.c', idToken: 'd.e.f' })}; ${amplifyCookieHeader('otherclient', 'taro', { accessToken: 'x.y.z' })}`
    expect(readSessionCookies(header, CLIENT_ID)).toEqual({
      username: 'hana',
      accessToken: 'a.b.c',
      idToken: 'd.e.f',
    })
    expect(readSessionCookies(header, 'nobody')).toBeUndefined()
    expect(readSessionCookies('_ga=1', CLIENT_ID)).toBeUndefined()
    expect(readSessionCookies(undefined, CLIENT_ID)).toBeUndefined()
  })

  it('reads usernames that js-cookie had to encode (an email address)', () => {
    const header = amplifyCookieHeader(CLIENT_ID, 'hana+1@example.com', { accessToken: 'a.b.c' })
    expect(readSessionCookies(header, CLIENT_ID)?.accessToken).toBe('a.b.c')
  })
})

describe('the signed-in user from verified tokens', () => {
  it('returns sub, username, email and groups for valid tokens', async () => {
    const tokens = tokenPair(key, {
      issuer: ISSUER,
      clientId: CLIENT_ID,
      username: 'hana',
      email: 'hana@example.com',
      groups: ['admin'],
    })
    const user = await reader().currentUser(request(amplifyCookieHeader(CLIENT_ID, 'hana', tokens)))
    expect(user).toMatchObject({
      sub: tokens.sub,
      username: 'hana',
      email: 'hana@example.com',
      groups: ['admin'],
    })
    expect(user?.expiresAt).toBeGreaterThan(Date.now())
  })

  it('works without an id token, leaving the email out', async () => {
    const { accessToken } = tokenPair(key, {
      issuer: ISSUER,
      clientId: CLIENT_ID,
      username: 'hana',
    })
    const user = await reader().currentUser(
      request(amplifyCookieHeader(CLIENT_ID, 'hana', { accessToken })),
    )
    expect(user).toMatchObject({ username: 'hana', email: undefined, groups: [] })
  })

  it('ignores an id token of somebody else', async () => {
    const hana = tokenPair(key, { issuer: ISSUER, clientId: CLIENT_ID, username: 'hana' })
    const taro = tokenPair(key, {
      issuer: ISSUER,
      clientId: CLIENT_ID,
      username: 'taro',
      email: 'taro@example.com',
    })
    const header = amplifyCookieHeader(CLIENT_ID, 'hana', {
      accessToken: hana.accessToken,
      idToken: taro.idToken,
    })
    expect((await reader().currentUser(request(header)))?.email).toBeUndefined()
  })

  const refused: [string, () => string][] = [
    ['no cookies', () => ''],
    [
      'an expired access token',
      () =>
        amplifyCookieHeader(
          CLIENT_ID,
          'hana',
          tokenPair(key, { issuer: ISSUER, clientId: CLIENT_ID, username: 'hana', expiresIn: -60 }),
        ),
    ],
    [
      'a token signed with another key under the same kid',
      () =>
        amplifyCookieHeader(
          CLIENT_ID,
          'hana',
          tokenPair(otherKey, { issuer: ISSUER, clientId: CLIENT_ID, username: 'hana' }),
        ),
    ],
    [
      'a token from another issuer',
      () =>
        amplifyCookieHeader(
          CLIENT_ID,
          'hana',
          tokenPair(key, {
            issuer: 'https://cognito-idp.ap-northeast-1.amazonaws.com/ap-northeast-1_Other',
            clientId: CLIENT_ID,
            username: 'hana',
          }),
        ),
    ],
    [
      'a token for another app client',
      () =>
        amplifyCookieHeader(
          CLIENT_ID,
          'hana',
          tokenPair(key, { issuer: ISSUER, clientId: 'someoneelse', username: 'hana' }),
        ),
    ],
    [
      'an id token where the access token belongs',
      () => {
        const { idToken } = tokenPair(key, {
          issuer: ISSUER,
          clientId: CLIENT_ID,
          username: 'hana',
        })
        return amplifyCookieHeader(CLIENT_ID, 'hana', { accessToken: idToken })
      },
    ],
    [
      'an unsigned token (alg none)',
      () => {
        const { accessToken } = tokenPair(key, {
          issuer: ISSUER,
          clientId: CLIENT_ID,
          username: 'hana',
        })
        const [, body] = accessToken.split('.')
        const head = Buffer.from(JSON.stringify({ alg: 'none', kid: key.kid })).toString(
          'base64url',
        )
        return amplifyCookieHeader(CLIENT_ID, 'hana', { accessToken: `${head}.${body}.` })
      },
    ],
    [
      'a token whose claims were edited after signing',
      () => {
        const { accessToken } = tokenPair(key, {
          issuer: ISSUER,
          clientId: CLIENT_ID,
          username: 'hana',
        })
        const [head, body, signature] = accessToken.split('.') as [string, string, string]
        const claims = JSON.parse(Buffer.from(body, 'base64url').toString())
        claims.username = 'admin'
        const edited = Buffer.from(JSON.stringify(claims)).toString('base64url')
        return amplifyCookieHeader(CLIENT_ID, 'hana', {
          accessToken: `${head}.${edited}.${signature}`,
        })
      },
    ],
    ['garbage', () => amplifyCookieHeader(CLIENT_ID, 'hana', { accessToken: 'not-a-jwt' })],
    [
      'a token without a username',
      () =>
        amplifyCookieHeader(CLIENT_ID, 'hana', {
          accessToken: signJwt(key, {
            sub: 'x',
            iss: ISSUER,
            token_use: 'access',
            client_id: CLIENT_ID,
            exp: Math.floor(Date.now() / 1000) + 600,
            iat: Math.floor(Date.now() / 1000),
          }),
        }),
    ],
  ]
  it.each(refused)('treats %s as a guest', async (_what, cookie) => {
    expect(await reader().currentUser(request(cookie()))).toBeUndefined()
  })

  it('answers each request once, however many loaders ask', async () => {
    let calls = 0
    const counting = watchedReader(() => {
      calls++
    })
    const tokens = tokenPair(key, { issuer: ISSUER, clientId: CLIENT_ID, username: 'hana' })
    const one = request(amplifyCookieHeader(CLIENT_ID, 'hana', tokens))
    await Promise.all([counting.currentUser(one), counting.currentUser(one)])
    expect(calls).toBe(2) // access + id, once
  })

  it('names the access token’s session when it verifies the id token beside it', async () => {
    const asked: { use: string; liveSession?: string }[] = []
    const recording = watchedReader((use, options) => {
      asked.push({ use, liveSession: options?.liveSession })
    })
    const tokens = tokenPair(key, { issuer: ISSUER, clientId: CLIENT_ID, username: 'hana' })
    const [, body] = tokens.accessToken.split('.') as [string, string]
    const { origin_jti } = JSON.parse(Buffer.from(body, 'base64url').toString()) as {
      origin_jti?: string
    }
    expect(origin_jti).toBeTruthy()
    await recording.cookieUser(amplifyCookieHeader(CLIENT_ID, 'hana', tokens))
    expect(asked).toEqual([
      { use: 'access', liveSession: undefined },
      { use: 'id', liveSession: origin_jti },
    ])
  })
})
