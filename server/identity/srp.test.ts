import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import {
  claimSignature,
  clientEphemeral,
  clientSessionKey,
  createVerifier,
  formatSrpTimestamp,
  isValidClientEphemeral,
  k,
  modPowN,
  N,
  padHex,
  parseSrpTimestamp,
  powG,
  serverEphemeral,
  serverSessionKey,
  signaturesMatch,
} from './srp.ts'

// The unmodified client library: the server must agree with it bit for bit.
const require = createRequire(import.meta.url)
const AuthenticationHelper =
  require('amazon-cognito-identity-js/lib/AuthenticationHelper.js').default
const BigInteger = require('amazon-cognito-identity-js/lib/BigInteger.js').default

type Helper = {
  getLargeAValue(callback: (error: unknown, A: { toString(radix: number): string }) => void): void
  getPasswordAuthenticationKey(
    username: string,
    password: string,
    B: unknown,
    salt: unknown,
    callback: (error: unknown, key: Uint8Array) => void,
  ): void
}

function clientKey(realm: string, user: string, password: string, BHex: string, saltHex: string) {
  const helper: Helper = new AuthenticationHelper(realm)
  return new Promise<{ AHex: string; key: Buffer }>((resolve, reject) => {
    helper.getLargeAValue((error, A) => {
      if (error) return reject(error)
      helper.getPasswordAuthenticationKey(
        user,
        password,
        new BigInteger(BHex, 16),
        new BigInteger(saltHex, 16),
        (keyError, key) =>
          keyError ? reject(keyError) : resolve({ AHex: A.toString(16), key: Buffer.from(key) }),
      )
    })
  })
}

function slowModPow(base: bigint, exponent: bigint): bigint {
  let result = 1n
  let b = base % N
  let e = exponent
  while (e > 0n) {
    if (e & 1n) result = (result * b) % N
    b = (b * b) % N
    e >>= 1n
  }
  return result
}

describe('modular arithmetic in OpenSSL', () => {
  it.each([0n, 1n, 2n, 255n, 2n ** 255n + 12345n, N - 2n])(
    'agrees with square-and-multiply for exponent %s',
    (exponent) => {
      const base = 0x1234567890abcdefn ** 20n % N
      expect(modPowN(base, exponent)).toBe(slowModPow(base, exponent))
      expect(powG(exponent)).toBe(slowModPow(2n, exponent))
    },
  )

  it('handles the edge bases 0, 1 and N-1', () => {
    expect(modPowN(0n, 5n)).toBe(0n)
    expect(modPowN(1n, 5n)).toBe(1n)
    expect(modPowN(N - 1n, 3n)).toBe(N - 1n)
    expect(modPowN(N - 1n, 4n)).toBe(1n)
  })
})

describe('Cognito conventions', () => {
  it('pads hex the way the clients do', () => {
    expect(padHex(0xfn)).toBe('0f')
    expect(padHex(0x7fn)).toBe('7f')
    expect(padHex(0x80n)).toBe('0080')
    expect(padHex(0x1234n)).toBe('1234')
  })

  it('uses the same k as the client library', () => {
    const helper = new AuthenticationHelper('TechLabPool')
    expect(k.toString(16)).toBe(helper.k.toString(16))
  })

  it('reads and writes the clients’ timestamp format', () => {
    const time = Date.UTC(2026, 10, 3, 4, 5, 6)
    expect(formatSrpTimestamp(time)).toBe('Tue Nov 3 04:05:06 UTC 2026')
    expect(parseSrpTimestamp('Tue Nov 3 04:05:06 UTC 2026')).toBe(time)
    expect(parseSrpTimestamp('Tue Nov 03 04:05:06 UTC 2026')).toBe(time)
    expect(parseSrpTimestamp('2026-11-03T04:05:06Z')).toBeUndefined()
    expect(parseSrpTimestamp('Xyz Nov 3 04:05:06 UTC 2026')).toBeUndefined()
  })
})

// The client library does its 3072-bit arithmetic in JavaScript: seconds per exchange.
describe('a full exchange with amazon-cognito-identity-js', { timeout: 60_000 }, () => {
  it.each([
    ['hana', 'Correct#Horse9'],
    ['ユーザー', 'パスワード#Aa1'],
  ])('derives the same key and accepts the claim for %s', async (user, password) => {
    const realm = 'TechLabPool'
    const { saltHex, verifierHex } = createVerifier(realm, user, password)
    const { bHex, BHex } = serverEphemeral(verifierHex)
    const client = await clientKey(realm, user, password, BHex, saltHex)
    expect(isValidClientEphemeral(client.AHex)).toBe(true)
    const key = serverSessionKey({ AHex: client.AHex, BHex, bHex, verifierHex })
    expect(key?.toString('hex')).toBe(client.key.toString('hex'))

    const secretBlock = Buffer.from('opaque session state').toString('base64')
    const timestamp = formatSrpTimestamp(Date.now())
    const claimed = claimSignature(client.key, realm, user, secretBlock, timestamp)
    expect(
      signaturesMatch(claimSignature(key as Buffer, realm, user, secretBlock, timestamp), claimed),
    ).toBe(true)
  })

  it('derives a different key from a wrong password', async () => {
    const realm = 'TechLabPool'
    const { saltHex, verifierHex } = createVerifier(realm, 'hana', 'Correct#Horse9')
    const { bHex, BHex } = serverEphemeral(verifierHex)
    const client = await clientKey(realm, 'hana', 'Wrong#Horse9', BHex, saltHex)
    const key = serverSessionKey({ AHex: client.AHex, BHex, bHex, verifierHex })
    expect(key?.equals(client.key)).toBe(false)
  })
})

describe('hostile client values', () => {
  it.each(['0', N.toString(16), (N * 3n).toString(16), '', 'zz', 'f'.repeat(2000)])(
    'rejects A = %s',
    (AHex) => {
      expect(isValidClientEphemeral(AHex)).toBe(false)
    },
  )

  it('compares signatures of different lengths as unequal without throwing', () => {
    expect(signaturesMatch('YWJj', 'YWJjZA==')).toBe(false)
  })
})

describe('the client side, in OpenSSL', () => {
  it('derives the key the server derives, and a different one from a wrong password', async () => {
    const realm = 'TechLabPool'
    const { saltHex, verifierHex } = createVerifier(realm, 'hana', 'Correct#Horse9')
    const { bHex, BHex } = serverEphemeral(verifierHex)
    const { aHex, AHex } = clientEphemeral()
    const server = serverSessionKey({ AHex, BHex, bHex, verifierHex })
    const client = (secret: string) =>
      clientSessionKey({ aHex, AHex, BHex, saltHex, realm, user: 'hana', secret })
    expect(client('Correct#Horse9')?.toString('hex')).toBe(server?.toString('hex'))
    expect(client('Wrong#Horse9')?.equals(server as Buffer)).toBe(false)
  })
})
