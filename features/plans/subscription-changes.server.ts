import type { PaidPlanId } from './plan-catalogue.ts'
import {
  type Billing,
  findSubscription,
  type Subscription,
  stateColumns,
} from './subscription-records.server.ts'
import { cancel, resume, SubscriptionTransitionError, switchPlan } from './subscription-state.ts'

/** Cancel at the period's end, resume before it, or switch monthly ↔ yearly for the next one. */
export async function changeSubscription(
  billing: Billing,
  userId: string,
  change: { action: 'cancel' } | { action: 'resume' } | { action: 'switch'; planId: PaidPlanId },
): Promise<Subscription> {
  return billing.db.transaction().execute(async (trx) => {
    const current = await findSubscription(trx, userId)
    if (!current) {
      throw new SubscriptionTransitionError('not-subscribed', 'ご契約中のプランがありません。')
    }
    // Stripe keeps its own copy: a change made only here would be undone by its next event.
    if (current.gateway !== 'embedded') {
      throw new SubscriptionTransitionError(
        'managed-by-gateway',
        'プランの解約や変更は「お支払い方法の変更・解約」から行ってください。',
      )
    }
    const now = billing.now()
    const next =
      change.action === 'cancel'
        ? cancel(current, now)
        : change.action === 'resume'
          ? resume(current, now)
          : switchPlan(current, change.planId, now)
    await trx
      .updateTable('subscriptions')
      .set({ ...stateColumns(next), updated_at: now })
      .where('user_id', '=', userId)
      .execute()
    return { ...current, ...next }
  })
}
