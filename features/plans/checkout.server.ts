import type { Kysely, Selectable } from 'kysely'
import { newContentId } from '#db/ids.ts'
import type { ChargesTable, DB } from '#db/schema.ts'
import type { CardDetails, ChargeResult, SavedCard } from '#server/payments/gateway.ts'
import { mailReceipt } from './billing-mail.server.ts'
import { cardGateway, chargeByKey, markPaid } from './charges.server.ts'
import type { PaidPlanId } from './plan-catalogue.ts'
import { type Billing, findSubscription, stateColumns } from './subscription-records.server.ts'
import { maySubscribe, type SubscriptionState, started } from './subscription-state.ts'

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
