import { PostgresAdapter, type Selectable, type Transaction } from 'kysely'
import { newContentId } from '#db/ids.ts'
import type { DB, SubscriptionsTable } from '#db/schema.ts'
import type { ChargeResult } from '#server/payments/gateway.ts'
import { enqueueFor, jstDate, mailReceipt } from './billing-mail.server.ts'
import { cardGateway, chargeByKey, markPaid } from './charges.server.ts'
import { formatYen } from './plan-catalogue.ts'
import { type Billing, stateColumns, toState } from './subscription-records.server.ts'
import {
  dueAction,
  ended,
  GRACE_MS,
  renewalFailed,
  renewalPeriod,
  renewed,
  type SubscriptionState,
} from './subscription-state.ts'

export type RenewalReport = { renewed: number; failed: number; ended: number; mailIds: string[] }

/**
 * One pass of the renewal scheduler: every subscription whose period has ended is renewed
 * (charged off-session with a key naming the period, so a pass killed after charging repeats
 * the same charge and the gateway answers the first result), moved to past_due when the charge
 * fails (mailed, retried daily through the grace period), or ended. Safe with several
 * instances: on PostgreSQL each subscription is claimed with FOR UPDATE SKIP LOCKED, so two
 * passes never work on the same row; SQLite has one writer.
 */
export async function runDueRenewals(billing: Billing, limit = 100): Promise<RenewalReport> {
  const report: RenewalReport = { renewed: 0, failed: 0, ended: 0, mailIds: [] }
  // Stripe renews its subscriptions itself and tells us by webhook (stripe-events.server.ts).
  if (billing.gateway.kind !== 'embedded') return report
  const now = billing.now()
  const due = await billing.db
    .selectFrom('subscriptions')
    .select('user_id')
    .where('gateway', '=', 'embedded')
    .where('status', '!=', 'canceled')
    .where('current_period_end', '<=', now)
    .orderBy('current_period_end')
    .limit(limit)
    .execute()
  for (const { user_id: userId } of due) {
    const outcome = await renewOne(billing, userId, now)
    if (!outcome) continue
    report[outcome.kind] += 1
    report.mailIds.push(...outcome.mailIds)
  }
  return report
}

async function renewOne(
  billing: Billing,
  userId: string,
  now: number,
): Promise<{ kind: 'renewed' | 'failed' | 'ended'; mailIds: string[] } | undefined> {
  // 1. Claim: decide, and write the pending charge (or end the subscription), then commit. The
  //    gateway is never called inside a transaction: a slow provider must not hold a lock.
  const claim = await billing.db
    .transaction()
    .execute((trx) => claimRenewal(trx, billing, userId, now))
  if (!claim) return undefined
  if (claim.kind === 'ended') return claim

  // 2. Charge, with the claim's key.
  const result = await cardGateway(billing).charge({
    paymentMethod: claim.paymentMethod,
    amountYen: claim.amountYen,
    idempotencyKey: claim.key,
    offSession: true,
  })

  // 3. Apply, once: only a charge still pending moves, and only while the subscription is
  //    still in the period the charge renews.
  return billing.db.transaction().execute((trx) => applyRenewal(trx, userId, claim, result, now))
}

/** What is due for the subscription: a charge to make (pending, committed first), or its end. */
async function claimRenewal(trx: Transaction<DB>, billing: Billing, userId: string, now: number) {
  const row = await lockedSubscription(trx, userId)
  if (!row) return undefined
  const state = toState(row)
  // A pass killed between charging and recording left its charge pending: finish that one
  // first, with its own key and amount, whatever is due now. A new attempt (a retry on another
  // day has a new key) could charge the card a second time and would leave the first unknown.
  const interrupted = await trx
    .selectFrom('charges')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', 'renewal')
    .where('status', '=', 'pending')
    .where('period_start', '=', state.currentPeriodEnd)
    .where('idempotency_key', 'like', `renewal:${row.id}:%`)
    .orderBy('created_at')
    .executeTakeFirst()
  if (interrupted) {
    return {
      kind: 'charge' as const,
      key: interrupted.idempotency_key,
      paymentMethod: interrupted.payment_method ?? '',
      amountYen: interrupted.amount_yen,
    }
  }
  const lastAttempt = row.last_attempt_at === null ? null : Number(row.last_attempt_at)
  const action = dueAction(state, lastAttempt, now)
  if (action === null) return undefined
  if (action === 'end') return endSubscription(trx, row.id, state, userId, now)
  return claimCharge(trx, billing, row, state, userId, now)
}

/** Ends the subscription; one that ran out of its grace period (past due) is told by mail. */
async function endSubscription(
  trx: Transaction<DB>,
  id: string,
  state: SubscriptionState,
  userId: string,
  now: number,
) {
  await trx
    .updateTable('subscriptions')
    .set({ ...stateColumns(ended(state)), updated_at: now })
    .where('id', '=', id)
    .execute()
  const mailIds =
    state.status === 'past_due'
      ? await enqueueFor(
          trx,
          userId,
          {
            subject: '【テックラボ】プレミアムプランが終了しました',
            text: 'お支払いを確認できなかったため、プレミアムプランは終了し、無料プランになりました。/plans からいつでも再開できます。',
          },
          now,
        )
      : []
  return { kind: 'ended' as const, mailIds }
}

/** Writes the period's pending charge, keyed so that a repeated pass finds it again. */
async function claimCharge(
  trx: Transaction<DB>,
  billing: Billing,
  row: Selectable<SubscriptionsTable>,
  state: SubscriptionState,
  userId: string,
  now: number,
) {
  const period = renewalPeriod(state)
  const price = billing.prices[period.planId]
  // One key per period and attempt day: a pass repeated after a crash reuses it (the gateway
  // answers the first result); the next day's retry is a new charge.
  const attempt = state.status === 'past_due' ? `:retry-${Math.floor(now / RETRY_DAY_MS)}` : ''
  const key = `renewal:${row.id}:${period.start}${attempt}`
  await trx
    .insertInto('charges')
    .values({
      id: newContentId(),
      user_id: userId,
      plan_id: period.planId,
      kind: 'renewal',
      amount_yen: price.totalYen,
      tax_yen: price.taxYen,
      period_start: period.start,
      period_end: period.end,
      status: 'pending',
      card_brand: row.card_brand,
      card_last4: row.card_last4,
      payment_method: row.payment_method,
      idempotency_key: key,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
    .execute()
  return {
    kind: 'charge' as const,
    key,
    paymentMethod: row.payment_method ?? '',
    amountYen: price.totalYen,
  }
}

/** Records the gateway's answer: renewed (receipt mailed), or past due (mailed on the first miss). */
async function applyRenewal(
  trx: Transaction<DB>,
  userId: string,
  claim: { key: string; amountYen: number },
  result: ChargeResult,
  now: number,
) {
  const row = await lockedSubscription(trx, userId)
  const charge = await chargeByKey(trx, claim.key)
  if (!row || !charge || charge.status !== 'pending') return undefined
  const state = toState(row)
  if (state.currentPeriodEnd !== Number(charge.period_start)) return undefined
  if (result.status === 'succeeded') {
    const receiptNumber = await markPaid(trx, charge.id, result.chargeId, now)
    await trx
      .updateTable('subscriptions')
      .set({ ...stateColumns(renewed(state)), last_attempt_at: null, updated_at: now })
      .where('id', '=', row.id)
      .execute()
    const mailIds = await mailReceipt(
      trx,
      userId,
      { ...charge, receipt_number: receiptNumber },
      now,
    )
    return { kind: 'renewed' as const, mailIds }
  }
  // Declined off-session (or asking for a cardholder who is not there): past due, retried.
  await trx
    .updateTable('charges')
    .set({
      status: 'failed',
      gateway_charge: result.chargeId,
      failure_code: result.status === 'failed' ? result.failure : 'authentication_required',
      updated_at: now,
    })
    .where('id', '=', charge.id)
    .execute()
  const failed = renewalFailed(state)
  await trx
    .updateTable('subscriptions')
    .set({ ...stateColumns(failed), last_attempt_at: now, updated_at: now })
    .where('id', '=', row.id)
    .execute()
  const mailIds =
    state.status === 'past_due'
      ? []
      : await enqueueFor(
          trx,
          userId,
          {
            subject: '【テックラボ】お支払いができませんでした',
            text: `プレミアムプランの更新料金 ${formatYen(claim.amountYen)} をお支払いいただけませんでした。${jstDate((failed.pastDueSince ?? now) + GRACE_MS)} まではプレミアムをご利用いただけます。その間、毎日お支払いを再試行します。カードを変更するには /plans をご覧ください。`,
          },
          now,
        )
  return { kind: 'failed' as const, mailIds }
}

const RETRY_DAY_MS = 24 * 3600 * 1000

/** The subscription, locked for this transaction on PostgreSQL (skipped if another pass has it). */
async function lockedSubscription(trx: Transaction<DB>, userId: string) {
  let query = trx.selectFrom('subscriptions').selectAll().where('user_id', '=', userId)
  if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate().skipLocked()
  return query.executeTakeFirst()
}
