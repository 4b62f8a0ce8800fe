import { describe, expect, it } from 'vitest'
import { newRequestIds } from './s3-response.ts'

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
