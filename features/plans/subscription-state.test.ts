import { describe, expect, it } from 'vitest'
import { GRACE_MS, includesPremiumNow, reportedByGateway } from './subscription-state.ts'

// What a gateway that renews by itself (Stripe) reports, in the state machine's terms.
const START = Date.UTC(2026, 10, 25, 1)
const END = Date.UTC(2026, 11, 25, 1)
const report = {
  status: 'active' as const,
  cancelAtPeriodEnd: false,
  planId: 'premium-monthly' as const,
  periodStart: START,
  periodEnd: END,
}

describe('reportedByGateway', () => {
  it('takes the gateway’s period, not one of our own calendar months', () => {
    const end = START + 10 * 24 * 3600 * 1000
    expect(reportedByGateway({ ...report, periodEnd: end }, undefined)).toEqual({
      status: 'active',
      planId: 'premium-monthly',
      nextPlanId: null,
      currentPeriodStart: START,
      currentPeriodEnd: end,
      pastDueSince: null,
    })
  })

  it('cancel at the period’s end keeps premium to that end only', () => {
    const state = reportedByGateway({ ...report, cancelAtPeriodEnd: true }, undefined)
    expect(state.status).toBe('cancel_at_period_end')
    expect(includesPremiumNow(state, END - 1)).toBe(true)
    expect(includesPremiumNow(state, END)).toBe(false)
  })

  it('past due since the period began, or since it first failed when already past due', () => {
    const first = reportedByGateway({ ...report, status: 'past_due' }, undefined)
    expect(first).toMatchObject({ status: 'past_due', pastDueSince: START })
    expect(includesPremiumNow(first, START + GRACE_MS - 1)).toBe(true)
    expect(includesPremiumNow(first, START + GRACE_MS)).toBe(false)
    const earlier = { ...first, pastDueSince: START - 1000 }
    expect(reportedByGateway({ ...report, status: 'past_due' }, earlier).pastDueSince).toBe(
      START - 1000,
    )
  })

  it('canceled is the end: no premium', () => {
    const state = reportedByGateway({ ...report, status: 'canceled' }, undefined)
    expect(state.status).toBe('canceled')
    expect(includesPremiumNow(state, START)).toBe(false)
  })
})
