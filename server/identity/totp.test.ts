import { describe, expect, it } from 'vitest'
import {
  base32Decode,
  base32Encode,
  generateTotpSecret,
  otpauthUri,
  totpCode,
  totpReplayed,
  verifyTotp,
} from './totp.ts'

// RFC 6238 appendix B: the SHA-1 secret "12345678901234567890" and its 8-digit codes,
// of which a 6-digit code is the last six digits.
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'))

describe('TOTP', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
  ])('matches RFC 6238 at T=%i', (seconds, eightDigits) => {
    expect(totpCode(RFC_SECRET, Math.floor(seconds / 30))).toBe(eightDigits.slice(2))
  })

  it('round-trips base32', () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255, 7, 9])
    expect(base32Decode(base32Encode(bytes)).equals(bytes)).toBe(true)
    expect(generateTotpSecret()).toMatch(/^[A-Z2-7]{32}$/)
  })

  it('accepts one step of drift either way, and no more', () => {
    const secret = generateTotpSecret()
    const now = 1_800_000_000_000
    const step = Math.floor(now / 30_000)
    expect(verifyTotp(secret, totpCode(secret, step), now)).toBe(step)
    expect(verifyTotp(secret, totpCode(secret, step - 1), now)).toBe(step - 1)
    expect(verifyTotp(secret, totpCode(secret, step + 1), now)).toBe(step + 1)
    expect(verifyTotp(secret, totpCode(secret, step - 2), now)).toBeUndefined()
    expect(verifyTotp(secret, totpCode(secret, step + 2), now)).toBeUndefined()
  })

  it('refuses a replayed step and malformed codes', () => {
    const secret = generateTotpSecret()
    const now = 1_800_000_000_000
    const step = Math.floor(now / 30_000)
    const code = totpCode(secret, step)
    expect(verifyTotp(secret, code, now, step)).toBeUndefined()
    // …and tells the replay apart from a wrong code.
    expect(totpReplayed(secret, code, now, step)).toBe(true)
    expect(totpReplayed(secret, code, now, step - 1)).toBe(false)
    expect(totpReplayed(secret, totpCode(secret, step + 3), now, step)).toBe(false)
    expect(totpReplayed(secret, code, now, null)).toBe(false)
    expect(verifyTotp(secret, '12345', now)).toBeUndefined()
    expect(verifyTotp(secret, '１２３４５６', now)).toBeUndefined()
  })

  it('builds the otpauth URI apps scan', () => {
    expect(otpauthUri({ secret: 'ABC', account: 'hana', issuer: 'テックラボ' })).toBe(
      'otpauth://totp/%E3%83%86%E3%83%83%E3%82%AF%E3%83%A9%E3%83%9C%3Ahana?secret=ABC&issuer=%E3%83%86%E3%83%83%E3%82%AF%E3%83%A9%E3%83%9C&algorithm=SHA1&digits=6&period=30',
    )
  })
})
