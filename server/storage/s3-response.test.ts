import { describe, expect, it } from 'vitest'
import { newRequestIds, rendersInline } from './s3-response.ts'

describe('request ids', () => {
  it('are S3-shaped and differ from each other across refills of the random pool', () => {
    const ids = Array.from({ length: 1000 }, newRequestIds)
    for (const { requestId, hostId } of ids) {
      expect(requestId).toMatch(/^[0-9A-F]{16}$/)
      expect(hostId).toMatch(/^[A-Za-z0-9+/]{32}$/)
    }
    expect(new Set(ids.map((id) => id.requestId)).size).toBe(ids.length)
    expect(new Set(ids.map((id) => id.hostId)).size).toBe(ids.length)
  })
})

describe('rendersInline', () => {
  it('takes pictures, sound, video, PDF and plain text whatever their case and parameters', () => {
    for (const type of ['image/PNG', 'Image/jpeg ; q=1', 'video/webm', 'text/plain;charset=utf-8'])
      expect(rendersInline(type)).toBe(true)
  })
  it('refuses markup, scripts, SVG, look-alikes and a missing type', () => {
    for (const type of [
      'image/svg+xml',
      'text/html',
      'text/plain-html',
      'text/xml',
      'application/javascript',
      'image/png/../html',
      '',
      undefined,
    ])
      expect(rendersInline(type)).toBe(false)
  })
})
