import { type PaidPlanId, type PlanInterval, periodEnd } from './plan-catalogue.ts'

// The subscription state machine: the single source of "premium", pure so that
// the renewal scheduler, the checkout, Stripe's webhooks and the plan rule all apply the same
// transitions. Modelled on Stripe Billing's states:
//
//   (none) ──subscribe──▶ active ──cancel──▶ cancel_at_period_end ──period ends──▶ canceled
//                           ▲  │  ◀──resume (before the end)──┘
//                           │  └─renewal fails─▶ past_due ──grace (3 days) over──▶ canceled
//                           └──────retry succeeds──┘
//
// A renewal at the period's end charges the next period (the plan switched to, if any); while a
// renewal is failing the learner keeps premium for the grace period, with a retry each day.

export const SUBSCRIPTION_STATUSES = [
  'active',
  'cancel_at_period_end',
  'past_due',
  'canceled',
] as const
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number]

const DAY_MS = 24 * 3600 * 1000
/** How long a learner whose renewal failed keeps premium while it is retried. */
export const GRACE_MS = 3 * DAY_MS
/** Between renewal attempts while past due. */
export const RETRY_INTERVAL_MS = DAY_MS

export type SubscriptionState = {
  status: SubscriptionStatus
  planId: PaidPlanId
  /** The plan the next renewal charges, when the learner switched monthly ↔ yearly. */
  nextPlanId: PaidPlanId | null
  currentPeriodStart: number
  currentPeriodEnd: number
  /** When the failing renewal was due (the period's end); null unless past due. */
  pastDueSince: number | null
}

export function intervalOf(planId: PaidPlanId): PlanInterval {
  return planId === 'premium-yearly' ? 'year' : 'month'
}

/** Premium now? The one answer every lock reads (features/plans/plan.server.ts). */
export function includesPremiumNow(state: SubscriptionState | undefined, now: number): boolean {
  if (!state) return false
  switch (state.status) {
    case 'active':
      // A renewal not yet run (the scheduler is late) must not lock a paying learner out:
      // an active subscription stays premium through the grace a failed renewal would get.
      return now < state.currentPeriodEnd + GRACE_MS
    case 'cancel_at_period_end':
      return now < state.currentPeriodEnd
    case 'past_due':
      return now < (state.pastDueSince ?? state.currentPeriodEnd) + GRACE_MS
    case 'canceled':
      return false
  }
}

export type SubscriptionTransitionCode =
  | 'not-subscribed'
  | 'already-subscribed'
  | 'not-cancelable'
  | 'not-resumable'
  | 'managed-by-gateway'

export class SubscriptionTransitionError extends Error {
  readonly code: SubscriptionTransitionCode
  constructor(code: SubscriptionTransitionCode, message: string) {
    super(message)
    this.code = code
  }
}

/** A new paid period from `now`: subscribing, or subscribing again after the end. */
export function started(planId: PaidPlanId, now: number): SubscriptionState {
  return {
    status: 'active',
    planId,
    nextPlanId: null,
    currentPeriodStart: now,
    currentPeriodEnd: periodEnd(now, intervalOf(planId)),
    pastDueSince: null,
  }
}

/** Whether a learner with this subscription may subscribe (again) through checkout. */
export function maySubscribe(state: SubscriptionState | undefined, now: number): boolean {
  return !state || state.status === 'canceled' || !includesPremiumNow(state, now)
}

export function cancel(state: SubscriptionState, now: number): SubscriptionState {
  if (state.status !== 'active' || now >= state.currentPeriodEnd) {
    throw new SubscriptionTransitionError('not-cancelable', '解約できるご契約がありません。')
  }
  return { ...state, status: 'cancel_at_period_end', nextPlanId: null }
}

export function resume(state: SubscriptionState, now: number): SubscriptionState {
  if (state.status !== 'cancel_at_period_end' || now >= state.currentPeriodEnd) {
    throw new SubscriptionTransitionError(
      'not-resumable',
      '解約の取り消しは、現在の期間が終わる前にだけできます。',
    )
  }
  return { ...state, status: 'active' }
}

/** Monthly ↔ yearly: takes effect at the next renewal (nothing is charged or refunded now). */
export function switchPlan(
  state: SubscriptionState,
  planId: PaidPlanId,
  now: number,
): SubscriptionState {
  if (state.status !== 'active' || now >= state.currentPeriodEnd) {
    throw new SubscriptionTransitionError(
      'not-subscribed',
      'プランを変更できるご契約がありません。',
    )
  }
  return { ...state, nextPlanId: planId === state.planId ? null : planId }
}

/** What the scheduler must do for this subscription at `now`, if anything. */
export function dueAction(
  state: SubscriptionState,
  lastAttemptAt: number | null,
  now: number,
): 'renew' | 'end' | null {
  if (state.status === 'cancel_at_period_end') return now >= state.currentPeriodEnd ? 'end' : null
  if (state.status === 'active') return now >= state.currentPeriodEnd ? 'renew' : null
  if (state.status === 'past_due') {
    const since = state.pastDueSince ?? state.currentPeriodEnd
    if (now >= since + GRACE_MS) return 'end'
    return lastAttemptAt === null || now >= lastAttemptAt + RETRY_INTERVAL_MS ? 'renew' : null
  }
  return null
}

/** The plan and period a renewal of this subscription charges. */
export function renewalPeriod(state: SubscriptionState): {
  planId: PaidPlanId
  start: number
  end: number
} {
  const planId = state.nextPlanId ?? state.planId
  const start = state.currentPeriodEnd
  return { planId, start, end: periodEnd(start, intervalOf(planId)) }
}

export function renewed(state: SubscriptionState): SubscriptionState {
  const next = renewalPeriod(state)
  return {
    status: 'active',
    planId: next.planId,
    nextPlanId: null,
    currentPeriodStart: next.start,
    currentPeriodEnd: next.end,
    pastDueSince: null,
  }
}

export function renewalFailed(state: SubscriptionState): SubscriptionState {
  return {
    ...state,
    status: 'past_due',
    pastDueSince: state.pastDueSince ?? state.currentPeriodEnd,
  }
}

export function ended(state: SubscriptionState): SubscriptionState {
  return { ...state, status: 'canceled', nextPlanId: null }
}

/**
 * The state a gateway that renews by itself (Stripe) reports, in our terms: its status and the
 * period it is in, from the state machine's own constructors. A renewal that failed there has
 * already moved to the new period, so it has been past due since that period began (or since
 * it first failed, when we already knew).
 */
export function reportedByGateway(
  report: {
    status: 'active' | 'past_due' | 'canceled'
    cancelAtPeriodEnd: boolean
    planId: PaidPlanId
    periodStart: number
    periodEnd: number
  },
  previous: SubscriptionState | undefined,
): SubscriptionState {
  const state = {
    ...started(report.planId, report.periodStart),
    currentPeriodEnd: report.periodEnd,
  }
  if (report.status === 'canceled') return ended(state)
  if (report.status === 'past_due') {
    const since = previous?.status === 'past_due' ? previous.pastDueSince : null
    return renewalFailed({ ...state, pastDueSince: since ?? report.periodStart })
  }
  return report.cancelAtPeriodEnd ? { ...state, status: 'cancel_at_period_end' } : state
}
