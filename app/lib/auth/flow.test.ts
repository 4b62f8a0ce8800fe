import { describe, expect, it } from 'vitest'
import { query } from '#app/lib/query-string.ts'
import { errorResult, fieldErrors, safeRedirect } from './flow.ts'

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
