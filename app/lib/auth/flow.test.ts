import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { query } from '#app/lib/query-string.ts'
import { emailSchema, usernameSchema } from '#features/users/account-input.ts'
import { errorResult, fieldErrors, parseForm, safeRedirect } from './flow.ts'
import { codeSchema, newPasswordPair, newPasswordSchema } from './validation.ts'

describe('where to go after signing in', () => {
  it.each([
    ['/settings', '/settings'],
    ['/courses?tag=js#top', '/courses?tag=js#top'],
    [null, '/'],
    ['', '/'],
    ['https://evil.example/', '/'],
    ['//evil.example/', '/'],
    ['/\\evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['/auth/signin', '/'],
    ['/auth', '/'],
    ['/authors', '/authors'],
    // Browsers drop tabs and newlines: `/\t/evil.example/` would be `//evil.example/`.
    ['/\t/evil.example/', '/'],
    ['/\n/evil.example/', '/'],
    ['/\r\n/evil.example/', '/'],
    ['/settings\nSet-Cookie: a=b', '/'],
    ['/\u0000', '/'],
    ['/.//evil.example/', '/'],
    ['/x/../..//evil.example/', '/'],
    ['/x/../auth/signin', '/'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/a/./b/../c?q=1', '/a/c?q=1'],
  ])('%j → %j', (target, expected) => {
    expect(safeRedirect(target)).toBe(expected)
  })

  it('answers the fallback given for anything refused', () => {
    expect(safeRedirect('//evil.example/', '')).toBe('')
  })
})

describe('form results', () => {
  it('keeps only the fields that failed', () => {
    expect(fieldErrors({ a: undefined, b: 'bad' })).toEqual({ errors: { b: 'bad' } })
    expect(fieldErrors({ a: undefined })).toBeUndefined()
  })

  it('puts an error on its field, or on the form', () => {
    const mismatch = Object.assign(new Error('x'), { name: 'CodeMismatchException' })
    expect(errorResult(mismatch, 'confirmSignUp').errors?.code).toBeDefined()
    const limit = Object.assign(new Error('x'), { name: 'LimitExceededException' })
    expect(errorResult(limit, 'confirmSignUp').formError).toBeDefined()
  })

  it('builds query strings without empty values', () => {
    expect(query({ username: 'hana', destination: undefined, from: '' })).toBe('?username=hana')
    expect(query({ a: null })).toBe('')
    expect(query({ to: 'h***@e***.com' })).toBe('?to=h***%40e***.com')
  })
})

function form(entries: Record<string, string>): FormData {
  const data = new FormData()
  for (const [name, value] of Object.entries(entries)) data.set(name, value)
  return data
}

describe('forms checked against a schema', () => {
  const signUp = z.object({
    username: usernameSchema,
    email: emailSchema,
    password: newPasswordSchema,
  })

  it('gives the parsed data, trimmed', () => {
    expect(
      parseForm(
        signUp,
        form({ username: ' hana ', email: 'hana@example.com ', password: 'Hajimete1!' }),
      ),
    ).toEqual({ data: { username: 'hana', email: 'hana@example.com', password: 'Hajimete1!' } })
  })

  it("gives each field's first message, the likeliest slip first", () => {
    expect(parseForm(signUp, form({ username: 'Hana', email: 'hana', password: 'abc' }))).toEqual({
      result: {
        errors: {
          username: 'ユーザー名に英大文字は使えません。小文字にしてください。',
          email: 'メールアドレスの形式が正しくありません（例: hana@example.com）。',
          password: expect.stringContaining('パスワードに足りないもの: 8文字以上'),
        },
      },
    })
    expect(parseForm(signUp, form({}))).toMatchObject({
      result: { errors: { username: 'ユーザー名を入力してください。' } },
    })
  })
})

describe('a new password typed twice', () => {
  const reset = newPasswordPair.and(z.object({ code: codeSchema }))

  it('tells a mismatch on the confirmation, and forgives a full-width code', () => {
    expect(
      parseForm(
        reset,
        form({ newPassword: 'Hajimete1!', confirmation: 'Hajimete1?', code: '１２３ ４５６' }),
      ),
    ).toEqual({ result: { errors: { confirmation: '確認用のパスワードが一致しません。' } } })
    expect(
      parseForm(
        reset,
        form({ newPassword: 'Hajimete1!', confirmation: 'Hajimete1!', code: '１２３ ４５６' }),
      ),
    ).toEqual({ data: { newPassword: 'Hajimete1!', confirmation: 'Hajimete1!', code: '123456' } })
  })

  it('names a weak password and a bad code', () => {
    expect(
      parseForm(reset, form({ newPassword: 'abc', confirmation: 'abc', code: '12' })),
    ).toMatchObject({
      result: {
        errors: {
          newPassword: expect.stringContaining('パスワードに足りないもの'),
          code: 'コードは6桁の数字です。',
        },
      },
    })
  })
})
