import { describe, expect, it } from 'vitest'
import { retryDelay } from './connection.ts'

describe('retryDelay', () => {
  it('doubles from half a second up to 30 s, half of each wait random', () => {
    const lowest = [0, 1, 2, 3, 6, 7, 20].map((attempt) => retryDelay(attempt, () => 0))
    const highest = [0, 1, 2, 3, 6, 7, 20].map((attempt) => retryDelay(attempt, () => 1))
    expect(lowest).toEqual([250, 500, 1_000, 2_000, 15_000, 15_000, 15_000])
    expect(highest).toEqual([500, 1_000, 2_000, 4_000, 30_000, 30_000, 30_000])
  })

  it('spreads the tabs a restart dropped at once', () => {
    const waits = new Set(Array.from({ length: 50 }, () => retryDelay(4)))
    expect(waits.size).toBeGreaterThan(10)
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(4_000)
  })
})
