import Stripe from 'stripe'

/**
 * Stripe webhook deliveries for tests, shaped as Stripe's API version of the `stripe` package
 * sends them, and signed with the package's own test helper (`generateTestHeaderString`), so
 * that the route verifies them exactly as it verifies Stripe's.
 */

const signer = new Stripe('sk_test_signer')

/** Stripe's times are seconds since the epoch. */
export const STRIPE_MONTH_S = 30 * 24 * 3600

export type SubscriptionFields = {
  id?: string
  customer?: string
  status?: string
  cancelAtPeriodEnd?: boolean
  price: string
  start: number
  end?: number
  userId: string
  paymentMethod?: object | null
}

export function stripeSubscription(fields: SubscriptionFields) {
  return {
    id: fields.id ?? 'sub_1',
    object: 'subscription',
    customer: fields.customer ?? 'cus_1',
    status: fields.status ?? 'active',
    cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
    cancel_at: null,
    start_date: fields.start,
    metadata: { user_id: fields.userId },
    default_payment_method: fields.paymentMethod ?? null,
    items: {
      object: 'list',
      data: [
        {
          id: 'si_1',
          object: 'subscription_item',
          current_period_start: fields.start,
          current_period_end: fields.end ?? fields.start + STRIPE_MONTH_S,
          price: { id: fields.price, object: 'price' },
        },
      ],
    },
  }
}

export function stripeInvoice(fields: {
  id: string
  reason: string
  start: number
  paid: boolean
  price: string
  userId: string
}) {
  return {
    id: fields.id,
    object: 'invoice',
    customer: 'cus_1',
    billing_reason: fields.reason,
    number: `INV-${fields.id}`,
    amount_paid: fields.paid ? 1078 : 0,
    amount_due: 1078,
    total_taxes: [{ amount: 98, tax_behavior: 'inclusive' }],
    period_start: fields.start,
    period_end: fields.start,
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: 'sub_1', metadata: { user_id: fields.userId } },
    },
    lines: {
      object: 'list',
      data: [
        {
          id: 'il_1',
          period: { start: fields.start, end: fields.start + STRIPE_MONTH_S },
          pricing: { price_details: { price: fields.price, product: 'prod_1' } },
        },
      ],
    },
  }
}

export function stripeEvent(id: string, type: string, created: number, object: object) {
  return {
    id,
    object: 'event',
    type,
    created,
    api_version: '2026-10-28.endive',
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  }
}

/** The body and `Stripe-Signature` header of a delivery signed with `secret`. */
export function signedDelivery(body: object, secret: string) {
  const payload = JSON.stringify(body)
  return { payload, signature: signer.webhooks.generateTestHeaderString({ payload, secret }) }
}

/** Delivers an event to a running site's webhook endpoint over HTTP. */
export async function deliverStripeEvent(siteUrl: string, body: object, secret: string) {
  const { payload, signature } = signedDelivery(body, secret)
  return fetch(`${siteUrl}/api/payments/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    body: payload,
  })
}
