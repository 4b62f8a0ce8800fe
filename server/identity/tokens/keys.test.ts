import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { signJwt, verifyJwtSignature } from './jwt.ts'
import { openKeyStore } from './keys.ts'

let dir: string
let file: string
const HOUR = 3600_000

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'techlab-keys-'))
  file = path.join(dir, 'identity', 'signing-keys.json')
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('the key store', () => {
  it('creates a key file readable only by its owner, and reads it back unchanged', async () => {
    const first = await openKeyStore({ file, keepRetiredMs: HOUR })
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const second = await openKeyStore({ file, keepRetiredMs: HOUR })
    expect(second.signingKey().kid).toBe(first.signingKey().kid)
    expect(second.secret.equals(first.secret)).toBe(true)
    expect(second.jwks()).toEqual(first.jwks())
    const jwk = first.jwks().keys[0]
    expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' })
    expect(Buffer.from(jwk?.n ?? '', 'base64url').length).toBe(256)
    expect(JSON.stringify(first.jwks())).not.toMatch(/"d"|PRIVATE/)
  })

  it('rotates: the new key signs, the old one verifies until its tokens have expired', async () => {
    let now = Date.UTC(2026, 0, 1)
    const keys = await openKeyStore({ file, keepRetiredMs: HOUR, now: () => now })
    const oldToken = signJwt({ sub: 'a' }, keys.signingKey())
    const oldKid = keys.signingKey().kid
    await keys.rotate()
    expect(keys.signingKey().kid).not.toBe(oldKid)
    expect(keys.jwks().keys.map((key) => key.kid)).toContain(oldKid)
    expect(verifyJwtSignature(oldToken, keys)).toEqual({ sub: 'a' })

    now += 2 * HOUR
    const reopened = await openKeyStore({ file, keepRetiredMs: HOUR, now: () => now })
    expect(reopened.jwks().keys.map((key) => key.kid)).not.toContain(oldKid)
    expect(verifyJwtSignature(oldToken, reopened)).toBeUndefined()
    expect(reopened.secret.equals(keys.secret)).toBe(true)
  })

  it('rotates at start-up when the signing key is old', async () => {
    let now = Date.UTC(2026, 0, 1)
    const keys = await openKeyStore({
      file,
      keepRetiredMs: HOUR,
      rotateAfterMs: 10 * HOUR,
      now: () => now,
    })
    now += 11 * HOUR
    const later = await openKeyStore({
      file,
      keepRetiredMs: HOUR,
      rotateAfterMs: 10 * HOUR,
      now: () => now,
    })
    expect(later.signingKey().kid).not.toBe(keys.signingKey().kid)
    expect(later.jwks().keys).toHaveLength(2)
  })

  it('learns a key another instance sharing the file rotated in', async () => {
    const a = await openKeyStore({ file, keepRetiredMs: HOUR, reloadIntervalMs: 0 })
    const b = await openKeyStore({ file, keepRetiredMs: HOUR, reloadIntervalMs: 0 })
    await a.rotate()
    const token = signJwt({ sub: 'z' }, a.signingKey())
    expect(verifyJwtSignature(token, b)).toBeUndefined()
    expect(await b.reload()).toBe(true)
    expect(verifyJwtSignature(token, b)).toEqual({ sub: 'z' })
    expect(b.signingKey().kid).toBe(a.signingKey().kid)
    expect(await b.reload()).toBe(false)
  })

  it('refuses a file that is not a key file', async () => {
    await openKeyStore({ file, keepRetiredMs: HOUR })
    await writeFile(file, '{"hello": "world"}')
    await expect(openKeyStore({ file, keepRetiredMs: HOUR })).rejects.toThrow(
      /not a user pool key file/,
    )
    expect(await readFile(file, 'utf8')).toContain('hello')
  })
})

describe('RS256 tokens', () => {
  it('verifies its own tokens and nothing altered or unsigned', async () => {
    const keys = await openKeyStore({ file, keepRetiredMs: HOUR })
    const token = signJwt({ sub: 'x', n: 1 }, keys.signingKey())
    expect(verifyJwtSignature(token, keys)).toEqual({ sub: 'x', n: 1 })
    const [header, body, signature] = token.split('.') as [string, string, string]
    const altered = `${header}.${Buffer.from('{"sub":"y","n":1}').toString('base64url')}.${signature}`
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${body}.`
    const hs = `${Buffer.from(JSON.stringify({ alg: 'HS256', kid: keys.signingKey().kid })).toString('base64url')}.${body}.${signature}`
    for (const bad of [altered, none, hs, 'a.b', `${token}x`, '...', '']) {
      expect(verifyJwtSignature(bad, keys)).toBeUndefined()
    }
    const other = await openKeyStore({ file: path.join(dir, 'other.json'), keepRetiredMs: HOUR })
    expect(verifyJwtSignature(token, other)).toBeUndefined()
  })
})
