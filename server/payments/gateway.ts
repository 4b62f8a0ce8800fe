// The payment service's port, which the plans feature charges through: two
// implementations, the embedded test gateway (embedded-gateway.ts, the default, no account
// anywhere) and Stripe. Amounts are whole yen (JPY has no minor unit). Like the other protocol
// services, this folder never imports product features.

/** A card as the checkout form sends it, already checked (number as digits only). */
export type CardDetails = {
  number: string
  expMonth: number
  expYear: number
  cvc: string
  name: string
}

/** A card the gateway keeps for later charges: its reference and what may be shown. */
export type SavedCard = {
  paymentMethod: string
  brand: string
  last4: string
  expMonth: number
  expYear: number
}

export type CardRefusal = { refused: 'not-a-test-card' }

export type ChargeFailure = 'card_declined' | 'insufficient_funds' | 'authentication_failed'

export type ChargeResult =
  | { status: 'succeeded'; chargeId: string }
  /** The card's bank asks the cardholder to confirm (3-D Secure) before the charge completes. */
  | { status: 'requires_action'; chargeId: string }
  | { status: 'failed'; chargeId: string; failure: ChargeFailure }

export type ChargeRequest = {
  paymentMethod: string
  amountYen: number
  /** The same key never charges twice: a repeated request answers the first one's result. */
  idempotencyKey: string
  /** Whether the cardholder is present (checkout) or not (a renewal). */
  offSession: boolean
}

/** A gateway we hand card details to and charge ourselves, at checkout and at each renewal. */
export interface CardGateway {
  readonly kind: 'embedded'
  saveCard(card: CardDetails): Promise<SavedCard | CardRefusal>
  charge(request: ChargeRequest): Promise<ChargeResult>
  /** The cardholder passed (or failed) the confirmation step of a `requires_action` charge. */
  completeAuthentication(chargeId: string, passed: boolean): Promise<ChargeResult>
}

/**
 * A gateway that takes the card on its own pages and renews by itself (Stripe Checkout and
 * Billing, stripe-gateway.ts): we send the learner there and learn what happened from signed
 * webhook events, translated here into gateway-neutral facts the plans feature applies.
 */
export interface HostedGateway {
  readonly kind: 'stripe'
  /** A hosted checkout page for one plan; the same key answers the same session (double clicks). */
  checkoutSession(request: HostedCheckoutRequest): Promise<{ url: string }>
  /** The hosted page where a customer changes their card or cancels. */
  portalSession(request: { customer: string; returnUrl: string }): Promise<{ url: string }>
  /**
   * A webhook delivery, verified against its signature header and translated; throws
   * `WebhookSignatureError` when the signature does not match the raw body.
   */
  webhookEvent(
    rawBody: Buffer,
    signature: string | undefined,
    options?: { alreadySeen?(eventId: string): Promise<boolean> },
  ): Promise<GatewayEvent>
}

export type PaymentGateway = CardGateway | HostedGateway

/** The plan ids the site sells (features/plans/plan-catalogue.ts says the same). */
export type GatewayPlanId = 'premium-monthly' | 'premium-yearly'

export type HostedCheckoutRequest = {
  userId: string
  email: string | undefined
  planId: GatewayPlanId
  /** The customer the learner already has with the gateway, reused so their cards stay theirs. */
  customer: string | null
  successUrl: string
  cancelUrl: string
  idempotencyKey: string
}

export class WebhookSignatureError extends Error {}

/** A subscription as the gateway reports it (times in ms since the epoch). */
export type HostedSubscription = {
  id: string
  customer: string
  /** Our user's id, carried in the subscription's metadata (or the checkout's reference). */
  userId: string | null
  /** Gateway statuses reduced to ours; `incomplete` is a checkout not yet paid (nothing to do). */
  status: 'active' | 'past_due' | 'canceled' | 'incomplete'
  cancelAtPeriodEnd: boolean
  planId: GatewayPlanId | null
  periodStart: number
  periodEnd: number
  card: Omit<SavedCard, 'paymentMethod'> | null
}

/** A subscription's invoice, paid or failed. */
export type HostedInvoice = {
  id: string
  subscriptionId: string
  customer: string
  userId: string | null
  kind: 'subscribe' | 'renewal'
  planId: GatewayPlanId | null
  amountYen: number
  taxYen: number
  periodStart: number
  periodEnd: number
}

/** A verified webhook event: its id (for idempotency), when it happened, and what it says. */
export type GatewayEvent = { id: string; type: string; createdAt: number } & (
  | { kind: 'subscription'; subscription: HostedSubscription }
  | { kind: 'invoice-paid'; invoice: HostedInvoice }
  | { kind: 'invoice-failed'; invoice: HostedInvoice }
  | { kind: 'ignored' }
)
