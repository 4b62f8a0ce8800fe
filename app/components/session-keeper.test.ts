import { describe, expect, it } from 'vitest'
import { refreshDelay } from './session-keeper.tsx'

const HOUR = 3600_000
const MINUTE = 60_000

describe('when the browser refreshes the session', () => {
  it('five minutes before an hour-long access token expires', () => {
    expect(refreshDelay(0, HOUR, 0)).toBe(55 * MINUTE)
    expect(refreshDelay(0, HOUR, 50 * MINUTE)).toBe(5 * MINUTE)
  })

  it('at once when the token is already (nearly) expired', () => {
    expect(refreshDelay(0, HOUR, 58 * MINUTE)).toBe(0)
    expect(refreshDelay(0, HOUR, 2 * HOUR)).toBe(0)
  })

  it('after three quarters of a short-lived token, never in a tight loop', () => {
    expect(refreshDelay(0, 4000, 0)).toBe(3000)
    expect(refreshDelay(0, 20 * MINUTE, 0)).toBe(15 * MINUTE)
  })
})
