import type { Kysely, Selectable, Transaction } from 'kysely'
import type { DB, SubscriptionsTable } from '#db/schema.ts'
import type { PaymentGateway } from '#server/payments/gateway.ts'
import type { PaidPlanId, PlanPrice } from './plan-catalogue.ts'
import type { SubscriptionState } from './subscription-state.ts'

/**
 * Subscriptions in the database (docs/decisions/038), as every billing module reads and writes
 * them. The operations on them live beside this file: checkout, changes (cancel / resume /
 * switch), renewal, billing history and billing mail.
 */

export type PlanPrices = Record<PaidPlanId, PlanPrice>

export type Billing = {
  db: Kysely<DB>
  gateway: PaymentGateway
  prices: PlanPrices
  now: () => number
}

export type Subscription = SubscriptionState & {
  card: { brand: string; last4: string; expMonth: number; expYear: number } | null
  /** Who charges it: us through the embedded gateway, or Stripe by itself (renewals, portal). */
  gateway: 'embedded' | 'stripe'
  /** The learner's customer with the gateway (Stripe), reused at the next checkout. */
  gatewayCustomer: string | null
}

export type Executor = Kysely<DB> | Transaction<DB>

export function toState(row: Selectable<SubscriptionsTable>): SubscriptionState {
  return {
    status: row.status,
    planId: row.plan_id,
    nextPlanId: row.next_plan_id,
    currentPeriodStart: Number(row.current_period_start),
    currentPeriodEnd: Number(row.current_period_end),
    pastDueSince: row.past_due_since === null ? null : Number(row.past_due_since),
  }
}

export function stateColumns(state: SubscriptionState) {
  return {
    status: state.status,
    plan_id: state.planId,
    next_plan_id: state.nextPlanId,
    current_period_start: state.currentPeriodStart,
    current_period_end: state.currentPeriodEnd,
    past_due_since: state.pastDueSince,
  }
}

export async function findSubscription(
  db: Executor,
  userId: string,
): Promise<Subscription | undefined> {
  const row = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!row) return undefined
  return {
    ...toState(row),
    gateway: row.gateway,
    gatewayCustomer: row.gateway_customer,
    card:
      row.card_last4 === null
        ? null
        : {
            brand: row.card_brand ?? 'unknown',
            last4: row.card_last4,
            expMonth: row.card_exp_month ?? 0,
            expYear: row.card_exp_year ?? 0,
          },
  }
}
