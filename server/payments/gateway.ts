// The payment service's port, which the plans feature charges through (issue 18 item 2): two
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

export interface PaymentGateway {
  readonly kind: 'embedded' | 'stripe'
  saveCard(card: CardDetails): Promise<SavedCard | CardRefusal>
  charge(request: ChargeRequest): Promise<ChargeResult>
  /** The cardholder passed (or failed) the confirmation step of a `requires_action` charge. */
  completeAuthentication(chargeId: string, passed: boolean): Promise<ChargeResult>
}
