import { type Kysely, PostgresAdapter, type Transaction } from 'kysely'
import { newContentId } from '#db/ids.ts'
import type { DB } from '#db/schema.ts'
import type {
  GatewayEvent,
  HostedGateway,
  HostedInvoice,
  HostedSubscription,
} from '#server/payments/gateway.ts'
import { mailReceipt } from './billing-mail.server.ts'
import { markPaid } from './charges.server.ts'
import type { PaidPlanId } from './plan-catalogue.ts'
import {
  type Billing,
  findSubscription,
  stateColumns,
  toState,
} from './subscription-records.server.ts'
import { maySubscribe, reportedByGateway } from './subscription-state.ts'

/**
 * Subscriptions with a gateway that takes the card and renews by itself (Stripe, decision 040):
 * checkout and card changes happen on its pages, and what happened arrives as signed webhook
 * events, applied here to our own subscription row, which stays the single source of premium.
 * Each event is applied once (its id is stored in the same transaction) and never over a newer
 * one: a row remembers when the event it last applied happened.
 */

function hostedGateway(billing: Billing): HostedGateway {
  if (billing.gateway.kind !== 'stripe') throw new Error('the embedded gateway takes cards here')
  return billing.gateway
}

export type HostedCheckoutResult =
  | { outcome: 'redirect'; url: string }
  | { outcome: 'already-subscribed' }

/**
 * A Checkout Session for one plan. `idempotencyKey` is the rendered form's, so a double click
 * answers the same session and the learner can pay only once.
 */
export async function startHostedCheckout(
  billing: Billing,
  input: {
    userId: string
    email: string | undefined
    planId: PaidPlanId
    idempotencyKey: string
    plansUrl: string
  },
): Promise<HostedCheckoutResult> {
  const gateway = hostedGateway(billing)
  const existing = await findSubscription(billing.db, input.userId)
  if (!maySubscribe(existing, billing.now())) return { outcome: 'already-subscribed' }
  const session = await gateway.checkoutSession({
    userId: input.userId,
    email: input.email,
    planId: input.planId,
    customer: existing?.gatewayCustomer ?? null,
    successUrl: `${input.plansUrl}?checkout=success`,
    cancelUrl: `${input.plansUrl}?checkout=canceled`,
    idempotencyKey: `checkout:${input.userId}:${input.idempotencyKey}`,
  })
  return { outcome: 'redirect', url: session.url }
}

/** The Customer Portal for a learner with a Stripe customer; undefined when they have none. */
export async function openBillingPortal(
  billing: Billing,
  userId: string,
  returnUrl: string,
): Promise<{ url: string } | undefined> {
  const gateway = hostedGateway(billing)
  const subscription = await findSubscription(billing.db, userId)
  if (!subscription?.gatewayCustomer) return undefined
  return gateway.portalSession({ customer: subscription.gatewayCustomer, returnUrl })
}

export type GatewayEventOutcome = {
  outcome: 'applied' | 'duplicate' | 'stale' | 'ignored'
  /** Receipts written to the outbox, to deliver after the commit. */
  mailIds: string[]
}

/** Whether this event id was already applied: a replay is answered without asking Stripe. */
export async function gatewayEventSeen(db: Kysely<DB>, eventId: string): Promise<boolean> {
  const row = await db
    .selectFrom('payment_webhook_events')
    .select('id')
    .where('id', '=', eventId)
    .executeTakeFirst()
  return row !== undefined
}

/** Applies one verified gateway event, in one transaction, at most once. */
export async function applyGatewayEvent(
  db: Kysely<DB>,
  event: GatewayEvent,
  now: number,
): Promise<GatewayEventOutcome> {
  return db.transaction().execute(async (trx) => {
    const recorded = await trx
      .insertInto('payment_webhook_events')
      .values({ id: event.id, type: event.type, received_at: now })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .executeTakeFirst()
    if (Number(recorded.numInsertedOrUpdatedRows ?? 0) === 0) {
      return { outcome: 'duplicate', mailIds: [] }
    }
    switch (event.kind) {
      case 'subscription':
        return applySubscription(trx, event.subscription, event.createdAt, now)
      case 'invoice-paid':
        return applyInvoicePaid(trx, event.invoice, event.createdAt, now)
      case 'invoice-failed':
        return applyInvoiceFailed(trx, event.invoice, event.createdAt, now)
      case 'ignored':
        return { outcome: 'ignored', mailIds: [] }
    }
  })
}

const IGNORED: GatewayEventOutcome = { outcome: 'ignored', mailIds: [] }
const STALE: GatewayEventOutcome = { outcome: 'stale', mailIds: [] }
const APPLIED: GatewayEventOutcome = { outcome: 'applied', mailIds: [] }

/** The learner's row, locked until the commit on PostgreSQL (events for one learner queue). */
async function lockedRow(trx: Transaction<DB>, userId: string) {
  let query = trx.selectFrom('subscriptions').selectAll().where('user_id', '=', userId)
  if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate()
  return query.executeTakeFirst()
}

/** Whose subscription: named in its metadata, or known from an earlier event. */
async function ownerOf(
  trx: Transaction<DB>,
  named: string | null,
  subscriptionId: string,
): Promise<string | undefined> {
  if (named) {
    const user = await trx
      .selectFrom('users')
      .select('id')
      .where('id', '=', named)
      .executeTakeFirst()
    return user?.id
  }
  const row = await trx
    .selectFrom('subscriptions')
    .select('user_id')
    .where('gateway_subscription', '=', subscriptionId)
    .executeTakeFirst()
  return row?.user_id
}

type Row = NonNullable<Awaited<ReturnType<typeof lockedRow>>>

/**
 * Whether an event that happened at `at` about `subscriptionId` is older than what the row
 * already shows. Stripe's `created` is in seconds, so two events can tie: then an end (canceled)
 * is final, as a deleted Stripe subscription never comes back.
 */
function staleFor(row: Row, subscriptionId: string, at: number, canceled: boolean): boolean {
  if (row.gateway_subscription !== subscriptionId || row.gateway_event_at === null) return false
  const last = Number(row.gateway_event_at)
  return at < last || (at === last && row.status === 'canceled' && !canceled)
}

async function applySubscription(
  trx: Transaction<DB>,
  subscription: HostedSubscription,
  at: number,
  now: number,
): Promise<GatewayEventOutcome> {
  // Not paid yet (its checkout is still open): nothing to show until it is.
  if (subscription.status === 'incomplete' || subscription.planId === null) return IGNORED
  const userId = await ownerOf(trx, subscription.userId, subscription.id)
  if (!userId) return IGNORED
  const row = await lockedRow(trx, userId)
  const canceled = subscription.status === 'canceled'
  if (row) {
    if (staleFor(row, subscription.id, at, canceled)) return STALE
    // The end of another (older) subscription says nothing about the one the learner has now.
    if (row.gateway_subscription !== subscription.id && canceled) return STALE
  }
  const same = row?.gateway_subscription === subscription.id
  const state = reportedByGateway(
    {
      status: subscription.status,
      cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
      planId: subscription.planId,
      periodStart: subscription.periodStart,
      periodEnd: subscription.periodEnd,
    },
    row && same ? toState(row) : undefined,
  )
  const columns = {
    ...stateColumns(state),
    gateway: 'stripe' as const,
    gateway_customer: subscription.customer,
    gateway_subscription: subscription.id,
    gateway_event_at: at,
    last_attempt_at: null,
    updated_at: now,
    ...(subscription.card && {
      card_brand: subscription.card.brand,
      card_last4: subscription.card.last4,
      card_exp_month: subscription.card.expMonth,
      card_exp_year: subscription.card.expYear,
    }),
  }
  if (row) {
    await trx.updateTable('subscriptions').set(columns).where('id', '=', row.id).execute()
    return APPLIED
  }
  // Two first events for one learner at once on PostgreSQL: the loser's insert fails, its
  // transaction (with its event id) rolls back, and Stripe delivers it again.
  await trx
    .insertInto('subscriptions')
    .values({ id: newContentId(), user_id: userId, ...columns, created_at: now })
    .execute()
  return APPLIED
}

/** A paid invoice: a receipt in the billing history (once), and the end of a failing renewal. */
async function applyInvoicePaid(
  trx: Transaction<DB>,
  invoice: HostedInvoice,
  at: number,
  now: number,
): Promise<GatewayEventOutcome> {
  if (invoice.planId === null) return IGNORED
  const userId = await ownerOf(trx, invoice.userId, invoice.subscriptionId)
  if (!userId) return IGNORED
  const row = await lockedRow(trx, userId)
  const card = row?.gateway_subscription === invoice.subscriptionId ? row : undefined
  const chargeId = newContentId()
  const inserted = await trx
    .insertInto('charges')
    .values({
      id: chargeId,
      user_id: userId,
      plan_id: invoice.planId,
      kind: invoice.kind,
      amount_yen: invoice.amountYen,
      tax_yen: invoice.taxYen,
      period_start: invoice.periodStart,
      period_end: invoice.periodEnd,
      status: 'pending',
      card_brand: card?.card_brand ?? null,
      card_last4: card?.card_last4 ?? null,
      idempotency_key: `stripe-invoice:${invoice.id}`,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
    .executeTakeFirst()
  let mailIds: string[] = []
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
    const receiptNumber = await markPaid(trx, chargeId, invoice.id, now)
    const charge = await trx
      .selectFrom('charges')
      .selectAll()
      .where('id', '=', chargeId)
      .executeTakeFirstOrThrow()
    mailIds = await mailReceipt(trx, userId, { ...charge, receipt_number: receiptNumber }, now)
  }
  // A retry that succeeded: premium again, for the period the invoice paid.
  if (
    row?.status === 'past_due' &&
    !staleFor(row, invoice.subscriptionId, at, false) &&
    row.gateway_subscription === invoice.subscriptionId
  ) {
    const state = reportedByGateway(
      { ...periodOf(invoice, row), status: 'active', cancelAtPeriodEnd: false },
      undefined,
    )
    await trx
      .updateTable('subscriptions')
      .set({ ...stateColumns(state), gateway_event_at: at, updated_at: now })
      .where('id', '=', row.id)
      .execute()
  }
  return { outcome: 'applied', mailIds }
}

/** A renewal invoice that failed: past due (premium through the grace), Stripe retries it. */
async function applyInvoiceFailed(
  trx: Transaction<DB>,
  invoice: HostedInvoice,
  at: number,
  now: number,
): Promise<GatewayEventOutcome> {
  const userId = await ownerOf(trx, invoice.userId, invoice.subscriptionId)
  if (!userId) return IGNORED
  const row = await lockedRow(trx, userId)
  // A first payment that failed never made a subscription here; an ended one stays ended.
  if (!row || row.gateway_subscription !== invoice.subscriptionId || row.status === 'canceled') {
    return IGNORED
  }
  if (staleFor(row, invoice.subscriptionId, at, false)) return STALE
  const state = reportedByGateway(
    { ...periodOf(invoice, row), status: 'past_due', cancelAtPeriodEnd: false },
    toState(row),
  )
  await trx
    .updateTable('subscriptions')
    .set({ ...stateColumns(state), gateway_event_at: at, updated_at: now })
    .where('id', '=', row.id)
    .execute()
  return APPLIED
}

function periodOf(invoice: HostedInvoice, row: Row) {
  return {
    planId: invoice.planId ?? row.plan_id,
    periodStart: invoice.periodStart,
    periodEnd: invoice.periodEnd,
  }
}
