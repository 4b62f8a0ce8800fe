import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTemporaryDatabase, type TemporaryDatabase } from '#db/test-support.ts'
import { issueTokens } from './issue.ts'
import { type KeyStore, openKeyStore } from './keys.ts'
import { createRefreshToken, revokeRefreshToken } from './refresh-tokens.ts'
import { createTokenVerifier, TokenRejected } from './verifier.ts'

const ISSUER = 'http://localhost:3000/cognito-idp/ap-northeast-1_TechLabPool'
const CLIENT = 'client1'
const SUB = '00000000-0000-4000-8000-000000000001'
let database: TemporaryDatabase
let keys: KeyStore
let now = Date.UTC(2026, 10, 22, 12)

beforeAll(async () => {
  database = await openTemporaryDatabase()
  keys = await openKeyStore({ file: path.join(database.dir, 'keys.json'), keepRetiredMs: 3600_000 })
  await database.db
    .insertInto('identity_users')
    .values({
      sub: SUB,
      username: 'hana',
      email: 'hana@example.com',
      status: 'CONFIRMED',
      password_salt: null,
      password_verifier: null,
      created_at: now,
      updated_at: now,
    })
    .execute()
})
afterAll(async () => {
  await database?.remove()
})

async function session() {
  const refresh = await createRefreshToken(database.db, {
    sub: SUB,
    clientId: CLIENT,
    authTime: now,
    ttlMs: 30 * 86_400_000,
    now,
  })
  const tokens = issueTokens(
    keys,
    { issuer: ISSUER, idTtlSeconds: 3600, accessTtlSeconds: 3600 },
    {
      sub: SUB,
      username: 'hana',
      email: 'hana@example.com',
      emailVerified: true,
      phoneNumber: null,
      phoneNumberVerified: false,
      groups: [],
      attributes: { name: '花子' },
    },
    { clientId: CLIENT, originJti: refresh.originJti, authTime: now, deviceKey: null },
    now,
  )
  return { ...tokens, refresh }
}

function verifier(options: { issuer?: string; clientId?: string } = {}) {
  return createTokenVerifier({
    db: database.db,
    keys,
    issuer: options.issuer ?? ISSUER,
    clientId: options.clientId ?? CLIENT,
    now: () => now,
  })
}

describe('the token verifier', () => {
  it('accepts a valid access and id token and returns their claims', async () => {
    const { AccessToken, IdToken } = await session()
    expect(await verifier()(AccessToken, 'access')).toMatchObject({ sub: SUB, username: 'hana' })
    expect(await verifier()(IdToken, 'id')).toMatchObject({ sub: SUB, name: '花子', aud: CLIENT })
  })

  it('refuses the wrong kind, issuer or client', async () => {
    const { AccessToken, IdToken } = await session()
    await expect(verifier()(IdToken, 'access')).rejects.toThrow('Invalid Access Token')
    await expect(verifier()(AccessToken, 'id')).rejects.toThrow('Invalid Id Token')
    await expect(verifier({ issuer: 'https://elsewhere' })(AccessToken, 'access')).rejects.toThrow(
      TokenRejected,
    )
    await expect(verifier({ clientId: 'other' })(AccessToken, 'access')).rejects.toThrow(
      TokenRejected,
    )
  })

  it('refuses an expired token', async () => {
    const { AccessToken } = await session()
    now += 3600_000
    try {
      await expect(verifier()(AccessToken, 'access')).rejects.toThrow('Access Token has expired')
    } finally {
      now -= 3600_000
    }
  })

  it('refuses the tokens of a revoked session, and those issued before a global sign-out', async () => {
    const first = await session()
    const second = await session()
    await revokeRefreshToken(database.db, first.refresh.token, now)
    await expect(verifier()(first.AccessToken, 'access')).rejects.toThrow(
      'Access Token has been revoked',
    )
    await expect(verifier()(first.IdToken, 'id')).rejects.toThrow('Id Token has been revoked')
    expect(await verifier()(second.AccessToken, 'access')).toBeTruthy()
    await database.db
      .updateTable('identity_users')
      .set({ tokens_valid_after: now + 1000 })
      .where('sub', '=', SUB)
      .execute()
    await expect(verifier()(second.AccessToken, 'access')).rejects.toThrow('has been revoked')
    await database.db.updateTable('identity_users').set({ tokens_valid_after: 0 }).execute()
  })

  it('skips the database only for a token of the session the caller names as just found open', async () => {
    const first = await session()
    const second = await session()
    const origin = (token: string) =>
      (
        JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
          origin_jti: string
        }
      ).origin_jti
    await revokeRefreshToken(database.db, first.refresh.token, now)
    // Named as live, a token of that session is not looked up again…
    expect(
      await verifier()(first.IdToken, 'id', { liveSession: origin(first.IdToken) }),
    ).toMatchObject({ sub: SUB })
    // …but naming another session checks this one: revoked is still revoked.
    await expect(
      verifier()(first.IdToken, 'id', { liveSession: origin(second.IdToken) }),
    ).rejects.toThrow('Id Token has been revoked')
    // Signature and expiry are checked whatever the caller says.
    const [head, body] = second.IdToken.split('.') as [string, string]
    await expect(
      verifier()(`${head}.${body}.AAAA`, 'id', { liveSession: origin(second.IdToken) }),
    ).rejects.toThrow('Invalid Id Token')
  })

  it('checks a token it has seen again for everything but its signature, and forgets a removed key', async () => {
    const { AccessToken, refresh } = await session()
    let keyRemoved = false
    const store: KeyStore = { ...keys, find: (kid) => (keyRemoved ? undefined : keys.find(kid)) }
    const verify = createTokenVerifier({
      db: database.db,
      keys: store,
      issuer: ISSUER,
      clientId: CLIENT,
      now: () => now,
    })
    expect(await verify(AccessToken, 'access')).toMatchObject({ sub: SUB })
    expect(await verify(AccessToken, 'access')).toMatchObject({ sub: SUB })
    keyRemoved = true
    await expect(verify(AccessToken, 'access')).rejects.toThrow('Invalid Access Token')
    keyRemoved = false
    now += 3600_000
    try {
      await expect(verify(AccessToken, 'access')).rejects.toThrow('Access Token has expired')
    } finally {
      now -= 3600_000
    }
    await revokeRefreshToken(database.db, refresh.token, now)
    await expect(verify(AccessToken, 'access')).rejects.toThrow('Access Token has been revoked')
  })

  it('refuses tokens of a disabled user', async () => {
    const { AccessToken } = await session()
    await database.db.updateTable('identity_users').set({ enabled: 0 }).execute()
    await expect(verifier()(AccessToken, 'access')).rejects.toThrow('User is disabled.')
    await database.db.updateTable('identity_users').set({ enabled: 1 }).execute()
  })
})
