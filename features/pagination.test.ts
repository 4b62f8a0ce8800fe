import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  cursorParameter,
  DEFAULT_PAGE_SIZE,
  encodeCursor,
  MAX_PAGE_SIZE,
  pageSizeParameter,
} from './pagination.ts'

const CURSOR_MESSAGE = 'カーソルの形式が正しくありません'

function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url')
}

describe('cursorParameter', () => {
  it('decodes the cursors encodeCursor issues', () => {
    for (const cursor of [
      { at: 0, id: 'a' },
      { at: 1_764_000_000_000, id: '0123456789abcdef' },
      { at: 9_007_199_254_740_991, id: 'z'.repeat(64) },
    ]) {
      const encoded = encodeCursor(cursor)
      expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/)
      expect(cursorParameter.parse(encoded)).toEqual(cursor)
    }
  })

  it.each([
    ['not base64 at all', '%%%'],
    ['random text', 'hello world'],
    ['empty', ''],
    ['no separator', b64('1764000000000')],
    ['negative time', b64('-1:abc')],
    ['fractional time', b64('1.5:abc')],
    ['time too long', b64(`${'9'.repeat(17)}:abc`)],
    ['upper-case id', b64('1764000000000:ABC')],
    ['SQL in the id', b64("1764000000000:a' or 1=1 --")],
    ['id too long', b64(`1:${'a'.repeat(65)}`)],
    ['empty id', b64('1764000000000:')],
    ['JSON', b64(JSON.stringify({ at: 1, id: 'a' }))],
  ])('rejects a garbage or forged cursor (%s) with a Japanese message', (_case, value) => {
    const result = cursorParameter.safeParse(value)
    expect(result.success).toBe(false)
    expect(result.error).toBeInstanceOf(z.ZodError)
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([CURSOR_MESSAGE])
  })

  it.each([
    ['an overlong value', 'a'.repeat(201)],
    ['a repeated query parameter', ['a', 'b']],
    ['a number', 12],
    ['null', null],
  ])('rejects %s with the same Japanese message', (_case, value) => {
    const result = cursorParameter.safeParse(value)
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([CURSOR_MESSAGE])
  })

  it('fails inside a query object on the cursor field', () => {
    const query = z.object({ cursor: cursorParameter.optional() })
    expect(query.parse({})).toEqual({})
    const result = query.safeParse({ cursor: 'garbage' })
    expect(result.error?.issues).toMatchObject([{ path: ['cursor'], message: CURSOR_MESSAGE }])
  })
})

describe('pageSizeParameter', () => {
  it('defaults to 20', () => {
    expect(DEFAULT_PAGE_SIZE).toBe(20)
    expect(pageSizeParameter.parse(undefined)).toBe(20)
  })

  it('accepts 1 to 50, also as query-string text', () => {
    expect(MAX_PAGE_SIZE).toBe(50)
    expect(pageSizeParameter.parse(1)).toBe(1)
    expect(pageSizeParameter.parse('1')).toBe(1)
    expect(pageSizeParameter.parse('50')).toBe(50)
    expect(pageSizeParameter.parse('7')).toBe(7)
  })

  it.each(['0', '51', '-3', '2.5', 'ten', '1e9'])('rejects %s', (value) => {
    expect(pageSizeParameter.safeParse(value).success).toBe(false)
  })
})
