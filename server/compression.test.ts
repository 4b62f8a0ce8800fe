import { describe, expect, it } from 'vitest'
import { isCompressible, negotiateCoding } from './compression.ts'

describe('negotiateCoding', () => {
  it('prefers brotli, then gzip', () => {
    expect(negotiateCoding('gzip, deflate, br, zstd')).toBe('br')
    expect(negotiateCoding('gzip, deflate')).toBe('gzip')
    expect(negotiateCoding('GZIP')).toBe('gzip')
  })

  it('follows the client’s weights and refusals', () => {
    expect(negotiateCoding('br;q=0.5, gzip')).toBe('gzip')
    expect(negotiateCoding('br;q=0, gzip;q=0.1')).toBe('gzip')
    expect(negotiateCoding('br;q=0, gzip;q=0')).toBeUndefined()
    expect(negotiateCoding('*')).toBe('br')
    expect(negotiateCoding('*, br;q=0')).toBe('gzip')
  })

  it('answers identity without a header, or for codings it does not speak', () => {
    expect(negotiateCoding(undefined)).toBeUndefined()
    expect(negotiateCoding('')).toBeUndefined()
    expect(negotiateCoding('identity')).toBeUndefined()
    expect(negotiateCoding('deflate, compress')).toBeUndefined()
    expect(negotiateCoding('br;q=abc')).toBeUndefined()
  })
})

describe('isCompressible', () => {
  it('takes text, JSON, JavaScript and SVG, not pictures or archives', () => {
    for (const type of [
      'text/html; charset=utf-8',
      'application/json',
      'application/javascript',
      'text/css',
      'image/svg+xml',
      'application/problem+json',
      'application/manifest+json',
    ]) {
      expect(isCompressible(type), type).toBe(true)
    }
    for (const type of ['image/png', 'application/zip', 'video/mp4', 'application/octet-stream']) {
      expect(isCompressible(type), type).toBe(false)
    }
    expect(isCompressible(undefined)).toBe(false)
  })
})
