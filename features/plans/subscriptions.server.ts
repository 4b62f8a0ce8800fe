import { randomBytes } from 'node:crypto'
import { type Kysely, PostgresAdapter, type Selectable, type Transaction } from 'kysely'
import { newContentId } from '#db/ids.ts'
import type { ChargesTable, DB, SubscriptionsTable } from '#db/schema.ts'
import type { MailMessage } from '#server/mail/mailer.ts'
import { enqueue } from '#server/mail/outbox.ts'
import type {
  CardDetails,
  CardGateway,
  ChargeResult,
  PaymentGateway,
  SavedCard,
} from '#server/payments/gateway.ts'
import { cardBrandLabel } from './card.ts'
import { formatYen, type PaidPlanId, type PlanPrice } from './plan-catalogue.ts'
import {
  cancel,
  dueAction,
  ended,
  GRACE_MS,
  maySubscribe,
  renewalFailed,
  renewalPeriod,
  renewed,
  resume,
  type SubscriptionState,
  SubscriptionTransitionError,
  started,
  switchPlan,
} from './subscription-state.ts'

/**
 * Subscriptions in the database (docs/decisions/038): checkout with the embedded
 * gateway, the authentication step, cancel / resume / switch, and the renewal scheduler. Every
 * charge is first written as a `charges` row keyed by its idempotency key and only then asked of
 * the gateway with that key, so a double click, a retry or a process killed mid-renewal neither
 * charges twice nor loses a charge: the next attempt finds the row, asks again with the same key,
 * and the gateway answers the first result.
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

type Executor = Kysely<DB> | Transaction<DB>

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

export type CheckoutResult =
  | { outcome: 'subscribed'; receiptNumber: string; mailIds: string[] }
  | { outcome: 'requires-authentication'; chargeId: string }
  | { outcome: 'failed'; message: string }
  | { outcome: 'already-subscribed' }

const FAILURE_MESSAGES: Record<string, string> = {
  card_declined: 'カードが承認されませんでした。別のカードをお試しください。',
  insufficient_funds: 'カードの残高が不足しています。別のカードをお試しください。',
  authentication_failed: 'カードの本人認証に失敗しました。もう一度お試しください。',
  'not-a-test-card':
    'このカード番号はテスト用のカードではありません。テスト環境では 4242 4242 4242 4242 などのテストカードをお使いください。',
}

export function failureMessage(code: string): string {
  return FAILURE_MESSAGES[code] ?? 'お支払いを完了できませんでした。時間をおいてお試しください。'
}

/**
 * Subscribes a learner: saves the card with the gateway, charges the first period, and starts
 * the subscription. `idempotencyKey` comes from the checkout form (one per rendered form), so a
 * second submission of the same form answers the first one's result and charges nothing more.
 */
export async function checkout(
  billing: Billing,
  input: { userId: string; planId: PaidPlanId; card: CardDetails; idempotencyKey: string },
): Promise<CheckoutResult> {
  const { db, gateway } = billing
  // A hosted gateway takes the card on its own page (startHostedCheckout).
  if (gateway.kind !== 'embedded') return { outcome: 'failed', message: failureMessage('') }
  const key = `checkout:${input.userId}:${input.idempotencyKey}`
  const previous = await chargeByKey(db, key)
  if (previous) return resultOfPrevious(billing, previous)
  const now = billing.now()
  const existing = await findSubscription(db, input.userId)
  if (!maySubscribe(existing, now)) return { outcome: 'already-subscribed' }

  const saved = await gateway.saveCard(input.card)
  if ('refused' in saved) return { outcome: 'failed', message: failureMessage(saved.refused) }
  return chargeFirstPeriod(billing, {
    userId: input.userId,
    planId: input.planId,
    card: saved,
    key,
  })
}

/**
 * Writes the pending charge of a checkout under its key, then asks the gateway with that key.
 * A request that loses the race to the same key answers what the winner did.
 */
async function chargeFirstPeriod(
  billing: Billing,
  input: { userId: string; planId: PaidPlanId; card: SavedCard; key: string },
): Promise<CheckoutResult> {
  const { db, prices } = billing
  const now = billing.now()
  const price = prices[input.planId]
  const chargeId = newContentId()
  const inserted = await db
    .insertInto('charges')
    .values({
      id: chargeId,
      user_id: input.userId,
      plan_id: input.planId,
      kind: 'subscribe',
      amount_yen: price.totalYen,
      tax_yen: price.taxYen,
      period_start: now,
      period_end: started(input.planId, now).currentPeriodEnd,
      status: 'pending',
      card_brand: input.card.brand,
      card_last4: input.card.last4,
      payment_method: input.card.paymentMethod,
      idempotency_key: input.key,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
    .executeTakeFirst()
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    const raced = await chargeByKey(db, input.key)
    return raced
      ? resultOfPrevious(billing, raced)
      : { outcome: 'failed', message: failureMessage('') }
  }
  const result = await cardGateway(billing).charge({
    paymentMethod: input.card.paymentMethod,
    amountYen: price.totalYen,
    idempotencyKey: input.key,
    offSession: false,
  })
  return applyCheckoutCharge(billing, chargeId, result, input.card)
}

/** The cardholder's answer to the confirmation step of a checkout that required it. */
export async function completeAuthentication(
  billing: Billing,
  input: { userId: string; chargeId: string; passed: boolean },
): Promise<CheckoutResult> {
  const charge = await billing.db
    .selectFrom('charges')
    .selectAll()
    .where('id', '=', input.chargeId)
    .where('user_id', '=', input.userId)
    .executeTakeFirst()
  const { gateway } = billing
  if (!charge || charge.gateway_charge === null || gateway.kind !== 'embedded') {
    return { outcome: 'failed', message: failureMessage('') }
  }
  if (charge.status !== 'requires_action') return resultOfPrevious(billing, charge)
  const result = await gateway.completeAuthentication(charge.gateway_charge, input.passed)
  return applyCheckoutCharge(billing, charge.id, result, savedCardOf(charge))
}

export type AuthenticationStep =
  | { state: 'waiting'; planId: PaidPlanId }
  | { state: 'failed'; planId: PaidPlanId; message: string }
  | { state: 'done' }

/**
 * Where a checkout that asked for authentication stands, for its page: still waiting for the
 * cardholder, failed authentication (which, as with Stripe's payment intents, leaves the payment
 * open to another attempt with the same card or another one), or finished.
 */
export async function authenticationStep(
  db: Kysely<DB>,
  input: { userId: string; chargeId: string },
): Promise<AuthenticationStep | undefined> {
  const charge = await db
    .selectFrom('charges')
    .select(['status', 'failure_code', 'plan_id', 'kind'])
    .where('id', '=', input.chargeId)
    .where('user_id', '=', input.userId)
    .executeTakeFirst()
  if (charge?.kind !== 'subscribe') return undefined
  if (charge.status === 'requires_action') return { state: 'waiting', planId: charge.plan_id }
  if (charge.status === 'failed' && charge.failure_code === 'authentication_failed') {
    return {
      state: 'failed',
      planId: charge.plan_id,
      message: failureMessage('authentication_failed'),
    }
  }
  return { state: 'done' }
}

/**
 * Another attempt at a checkout whose authentication failed, with the same card: a new charge
 * that asks the cardholder again (Stripe confirms the same payment intent again). Its key is
 * derived from the failed charge, so a double click starts one attempt, not two.
 */
export async function retryAuthentication(
  billing: Billing,
  input: { userId: string; chargeId: string },
): Promise<CheckoutResult> {
  const { db, gateway } = billing
  const failed = await db
    .selectFrom('charges')
    .selectAll()
    .where('id', '=', input.chargeId)
    .where('user_id', '=', input.userId)
    .where('kind', '=', 'subscribe')
    .executeTakeFirst()
  if (!failed || gateway.kind !== 'embedded') {
    return { outcome: 'failed', message: failureMessage('') }
  }
  if (failed.status !== 'failed' || failed.failure_code !== 'authentication_failed') {
    return resultOfPrevious(billing, failed)
  }
  const key = `${failed.idempotency_key}:again:${failed.id}`
  const previous = await chargeByKey(db, key)
  if (previous) return resultOfPrevious(billing, previous)
  const now = billing.now()
  if (!maySubscribe(await findSubscription(db, input.userId), now)) {
    return { outcome: 'already-subscribed' }
  }
  return chargeFirstPeriod(billing, {
    userId: input.userId,
    planId: failed.plan_id,
    card: savedCardOf(failed),
    key,
  })
}

function savedCardOf(charge: Selectable<ChargesTable>): SavedCard {
  return {
    paymentMethod: charge.payment_method ?? '',
    brand: charge.card_brand ?? 'unknown',
    last4: charge.card_last4 ?? '',
    expMonth: 0,
    expYear: 0,
  }
}

async function chargeByKey(db: Executor, key: string) {
  return db.selectFrom('charges').selectAll().where('idempotency_key', '=', key).executeTakeFirst()
}

async function resultOfPrevious(
  billing: Billing,
  charge: Selectable<ChargesTable>,
): Promise<CheckoutResult> {
  switch (charge.status) {
    case 'succeeded':
      return { outcome: 'subscribed', receiptNumber: charge.receipt_number ?? '', mailIds: [] }
    case 'requires_action':
      return { outcome: 'requires-authentication', chargeId: charge.id }
    case 'failed':
      return { outcome: 'failed', message: failureMessage(charge.failure_code ?? '') }
    case 'pending': {
      // The first request stopped between writing the charge and hearing from the gateway (a
      // crash): ask again with the same key, which charges at most once.
      const result = await cardGateway(billing).charge({
        paymentMethod: charge.payment_method ?? '',
        amountYen: charge.amount_yen,
        idempotencyKey: charge.idempotency_key,
        offSession: false,
      })
      return applyCheckoutCharge(billing, charge.id, result, savedCardOf(charge))
    }
  }
}

/** Records the gateway's answer for a checkout charge and, when paid, starts the subscription. */
async function applyCheckoutCharge(
  billing: Billing,
  chargeId: string,
  result: ChargeResult,
  card: SavedCard,
): Promise<CheckoutResult> {
  const now = billing.now()
  if (result.status === 'requires_action') {
    await billing.db
      .updateTable('charges')
      .set({ status: 'requires_action', gateway_charge: result.chargeId, updated_at: now })
      .where('id', '=', chargeId)
      .execute()
    return { outcome: 'requires-authentication', chargeId }
  }
  if (result.status === 'failed') {
    await billing.db
      .updateTable('charges')
      .set({
        status: 'failed',
        failure_code: result.failure,
        gateway_charge: result.chargeId,
        updated_at: now,
      })
      .where('id', '=', chargeId)
      .execute()
    return { outcome: 'failed', message: failureMessage(result.failure) }
  }
  return billing.db.transaction().execute(async (trx) => {
    const charge = await trx
      .selectFrom('charges')
      .selectAll()
      .where('id', '=', chargeId)
      .executeTakeFirstOrThrow()
    if (charge.status === 'succeeded') {
      return { outcome: 'subscribed', receiptNumber: charge.receipt_number ?? '', mailIds: [] }
    }
    const receiptNumber = await markPaid(trx, chargeId, result.chargeId, now)
    // The period starts when the charge was first made, as the receipt says.
    const state: SubscriptionState = {
      ...started(charge.plan_id, Number(charge.period_start)),
      currentPeriodEnd: Number(charge.period_end),
    }
    const cardColumns = {
      gateway: billing.gateway.kind,
      payment_method: card.paymentMethod,
      card_brand: card.brand,
      card_last4: card.last4,
      ...(card.expMonth > 0 && { card_exp_month: card.expMonth, card_exp_year: card.expYear }),
      last_attempt_at: null,
      updated_at: now,
    }
    await trx
      .insertInto('subscriptions')
      .values({
        id: newContentId(),
        user_id: charge.user_id,
        ...stateColumns(state),
        ...cardColumns,
        created_at: now,
      })
      .onConflict((conflict) =>
        conflict.column('user_id').doUpdateSet({ ...stateColumns(state), ...cardColumns }),
      )
      .execute()
    const mailIds = await mailReceipt(
      trx,
      charge.user_id,
      { ...charge, receipt_number: receiptNumber },
      now,
    )
    return { outcome: 'subscribed' as const, receiptNumber, mailIds }
  })
}

/** Records a charge as paid, with a new receipt number, which it returns. */
export async function markPaid(
  trx: Transaction<DB>,
  chargeId: string,
  gatewayCharge: string,
  now: number,
): Promise<string> {
  const receiptNumber = newReceiptNumber(now)
  await trx
    .updateTable('charges')
    .set({
      status: 'succeeded',
      gateway_charge: gatewayCharge,
      receipt_number: receiptNumber,
      failure_code: null,
      updated_at: now,
    })
    .where('id', '=', chargeId)
    .execute()
  return receiptNumber
}

function newReceiptNumber(now: number): string {
  const day = new Date(now + 9 * 3600 * 1000).toISOString().slice(0, 10).replaceAll('-', '')
  return `TL-${day}-${randomBytes(5).toString('hex').toUpperCase()}`
}

async function emailOf(db: Executor, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('identity_users')
    .select('email')
    .where('sub', '=', userId)
    .executeTakeFirst()
  return row?.email ?? undefined
}

const PLAN_NAMES: Record<PaidPlanId, string> = {
  'premium-monthly': 'プレミアム（月額）',
  'premium-yearly': 'プレミアム（年額）',
}

export function planName(planId: PaidPlanId): string {
  return PLAN_NAMES[planId]
}

function jstDate(ms: number): string {
  return new Intl.DateTimeFormat('ja-JP', { timeZone: 'Asia/Tokyo', dateStyle: 'long' }).format(ms)
}

async function enqueueFor(
  trx: Executor,
  userId: string,
  mail: Omit<MailMessage, 'to'>,
  now: number,
): Promise<string[]> {
  const to = await emailOf(trx, userId)
  return to ? [await enqueue(trx, { ...mail, to }, now)] : []
}

export async function mailReceipt(
  trx: Executor,
  userId: string,
  charge: Selectable<ChargesTable>,
  now: number,
): Promise<string[]> {
  return enqueueFor(
    trx,
    userId,
    {
      subject: `【テックラボ】領収書 ${charge.receipt_number}`,
      text: [
        'テックラボをご利用いただきありがとうございます。お支払いを受け付けました。',
        '',
        `領収書番号: ${charge.receipt_number}`,
        `プラン: ${planName(charge.plan_id)}`,
        `期間: ${jstDate(Number(charge.period_start))} 〜 ${jstDate(Number(charge.period_end))}`,
        `金額: ${formatYen(charge.amount_yen)}（うち消費税 ${formatYen(charge.tax_yen)}）`,
        `お支払い方法: ${cardOf(charge)}`,
        '',
        'お支払いの履歴は設定ページ（/settings）の「お支払い」からご覧いただけます。',
      ].join('\n'),
    },
    now,
  )
}

/** The card of a charge; one paid on Stripe before we learned its card shows no number. */
function cardOf(charge: { card_brand: string | null; card_last4: string | null }): string {
  const label = cardBrandLabel(charge.card_brand)
  return charge.card_last4 === null ? label : `${label} 末尾 ${charge.card_last4}`
}

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
  const claim = await billing.db.transaction().execute(async (trx) => {
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
    if (action === 'end') {
      await trx
        .updateTable('subscriptions')
        .set({ ...stateColumns(ended(state)), updated_at: now })
        .where('id', '=', row.id)
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
  })
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
  return billing.db.transaction().execute(async (trx) => {
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
  })
}

const RETRY_DAY_MS = 24 * 3600 * 1000

/** The gateway we charge cards through; only the embedded one is asked for charges. */
function cardGateway(billing: Billing): CardGateway {
  if (billing.gateway.kind !== 'embedded') throw new Error('this gateway charges by itself')
  return billing.gateway
}

/** The subscription, locked for this transaction on PostgreSQL (skipped if another pass has it). */
async function lockedSubscription(trx: Transaction<DB>, userId: string) {
  let query = trx.selectFrom('subscriptions').selectAll().where('user_id', '=', userId)
  if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate().skipLocked()
  return query.executeTakeFirst()
}

export type BillingHistoryEntry = {
  id: string
  createdAt: number
  planId: PaidPlanId
  amountYen: number
  taxYen: number
  card: string
  receiptNumber: string | null
  status: 'succeeded' | 'failed'
}

/** What /settings shows under お支払い: every completed or failed charge, newest first. */
export async function billingHistory(
  db: Kysely<DB>,
  userId: string,
  limit = 50,
): Promise<BillingHistoryEntry[]> {
  const rows = await db
    .selectFrom('charges')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', 'in', ['succeeded', 'failed'])
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute()
  return rows.map((row) => ({
    id: row.id,
    createdAt: Number(row.created_at),
    planId: row.plan_id,
    amountYen: row.amount_yen,
    taxYen: row.tax_yen,
    card:
      row.card_last4 === null
        ? cardOf(row)
        : `${cardBrandLabel(row.card_brand)} •••• ${row.card_last4}`,
    receiptNumber: row.receipt_number,
    status: row.status === 'succeeded' ? 'succeeded' : 'failed',
  }))
}
