import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  decoyVerifier,
  passwordColumns,
  passwordMatches,
  passwordPolicyViolation,
  temporaryPassword,
} from './passwords.ts'

describe('the password policy', () => {
  it.each([
    ['Aa1#aaaa', undefined],
    ['パスワード#Aa1', undefined],
    ['Aa1 bbbb', undefined],
    ['Aa1#', 'Password not long enough'],
    ['aa1#aaaa', 'Password must have uppercase characters'],
    ['AA1#AAAA', 'Password must have lowercase characters'],
    ['Aab#aaaa', 'Password must have numeric characters'],
    ['Aa12aaaa', 'Password must have symbol characters'],
  ])('%j → %s', (password, problem) => {
    const violation = passwordPolicyViolation(password)
    if (problem === undefined) expect(violation).toBeUndefined()
    else expect(violation).toBe(`Password did not conform with policy: ${problem}`)
  })

  it('makes temporary passwords that satisfy it', () => {
    for (let i = 0; i < 50; i++)
      expect(passwordPolicyViolation(temporaryPassword())).toBeUndefined()
  })
})

describe('verifiers instead of passwords', () => {
  it('matches the right password only', () => {
    const user = { username: 'hana', ...passwordColumns('Pool', 'hana', 'Correct#Horse9') }
    expect(passwordMatches('Pool', user, 'Correct#Horse9')).toBe(true)
    expect(passwordMatches('Pool', user, 'correct#Horse9')).toBe(false)
    expect(passwordMatches('Other', user, 'Correct#Horse9')).toBe(false)
    expect(passwordMatches('Pool', { ...user, password_verifier: null }, 'Correct#Horse9')).toBe(
      false,
    )
  })

  it('gives unknown names a stable stand-in that looks like a real salt', () => {
    const secret = randomBytes(32)
    const a = decoyVerifier(secret, 'Pool', 'nobody')
    expect(decoyVerifier(secret, 'Pool', 'nobody')).toEqual(a)
    expect(decoyVerifier(secret, 'Pool', 'somebody').saltHex).not.toBe(a.saltHex)
    expect(decoyVerifier(randomBytes(32), 'Pool', 'nobody').saltHex).not.toBe(a.saltHex)
    expect(a.saltHex).toMatch(/^[0-9a-f]{32}$/)
    expect(passwordColumns('Pool', 'x', 'y').password_salt).toMatch(/^[0-9a-f]{32}$/)
  })
})
