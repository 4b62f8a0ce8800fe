import { describe, expect, it } from 'vitest'
import { passwordChecks, passwordMeetsPolicy } from './password-rules.ts'
import {
  codeError,
  emailError,
  newPasswordError,
  normalizeCode,
  usernameError,
} from './validation.ts'

describe('password policy', () => {
  it('checks each rule on its own, as the live checklist shows them', () => {
    const met = (password: string) =>
      Object.fromEntries(passwordChecks(password).map((check) => [check.id, check.met]))
    expect(met('')).toEqual({
      length: false,
      upper: false,
      lower: false,
      digit: false,
      symbol: false,
    })
    expect(met('abcdefgh')).toEqual({
      length: true,
      upper: false,
      lower: true,
      digit: false,
      symbol: false,
    })
    expect(met('Abcdef1!')).toEqual({
      length: true,
      upper: true,
      lower: true,
      digit: true,
      symbol: true,
    })
  })

  it.each(['Passw0rd!', 'Xy9_abcde', 'Sp ace 1A', 'ｐ1Aa^bcdef'])('accepts %s', (password) => {
    expect(passwordMeetsPolicy(password)).toBe(true)
    expect(newPasswordError(password)).toBeUndefined()
  })

  it.each(['Short1!', 'password1!', 'PASSWORD1!', 'Password!!', 'Password12'])(
    'refuses %s and says what is missing',
    (password) => {
      expect(passwordMeetsPolicy(password)).toBe(false)
      expect(newPasswordError(password)).toMatch(/^パスワードに足りないもの: .+/)
    },
  )

  it('counts characters, not UTF-16 units', () => {
    expect(passwordChecks('A1!a😀😀😀').find((check) => check.id === 'length')?.met).toBe(false)
  })
})

describe('usernames, emails and codes', () => {
  it.each([
    ['hana_dev', undefined],
    ['', 'ユーザー名を入力'],
    ['ab', '3〜20文字'],
    ['a'.repeat(21), '3〜20文字'],
    ['hana-dev', '半角の英小文字'],
    ['はな', '半角の英小文字'],
    ['Hana', '英大文字は使えません'],
  ])('username %j', (username, problem) => {
    const error = usernameError(username)
    if (problem === undefined) expect(error).toBeUndefined()
    else expect(error).toContain(problem)
  })

  it.each([
    ['hana@example.com', true],
    ['hana.sato+learn@example.co.jp', true],
    ['', false],
    ['hana', false],
    ['hana@example', false],
    ['ha na@example.com', false],
  ])('email %j valid: %s', (email, valid) => {
    expect(emailError(email) === undefined).toBe(valid)
  })

  it('forgives full-width digits and spaces in codes', () => {
    expect(normalizeCode('１２３ ４５６')).toBe('123456')
    expect(codeError(normalizeCode('123-456'))).toBeUndefined()
    expect(codeError('12345')).toContain('6桁')
    expect(codeError('')).toContain('入力')
  })
})
