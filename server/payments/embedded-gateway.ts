import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type {
  CardDetails,
  CardGateway,
  CardRefusal,
  ChargeFailure,
  ChargeRequest,
  ChargeResult,
  SavedCard,
} from './gateway.ts'

/**
 * The embedded payment gateway: card payments with no account anywhere, behaving as Stripe
 * documents its test cards (https://docs.stripe.com/testing), so that the whole checkout can be
 * used and tested on one machine. It accepts ONLY those numbers: any other is refused as "not a
 * test card", so a real card can never be entered into it by mistake. What it keeps is what a
 * provider keeps: a card reference naming the test behaviour (never the number) and a ledger of
 * charges by idempotency key, so a charge repeated after a crash answers the first one's result.
 * Refused in production unless enabled explicitly (server/config.ts).
 */

type Behaviour = 'succeeds' | 'declined' | 'insufficient' | 'authenticate' | 'fails-later'

const TEST_CARDS: Record<string, { brand: string; behaviour: Behaviour }> = {
  '4242424242424242': { brand: 'visa', behaviour: 'succeeds' },
  '5555555555554444': { brand: 'mastercard', behaviour: 'succeeds' },
  '3566002020360505': { brand: 'jcb', behaviour: 'succeeds' },
  '378282246310005': { brand: 'amex', behaviour: 'succeeds' },
  '4000000000000002': { brand: 'visa', behaviour: 'declined' },
  '4000000000009995': { brand: 'visa', behaviour: 'insufficient' },
  '4000002500003155': { brand: 'visa', behaviour: 'authenticate' },
  // Saved successfully; every later charge is declined (Stripe's 4000 0000 0000 0341): a renewal
  // that fails.
  '4000000000000341': { brand: 'visa', behaviour: 'fails-later' },
}

const PAYMENT_METHOD =
  /^pm_embedded_(succeeds|declined|insufficient|authenticate|fails-later)_[a-z0-9]+$/

type Outcome = 'succeeded' | 'requires_action' | ChargeFailure

export function createEmbeddedGateway(db: Kysely<DB>, now: () => number): CardGateway {
  // Long by design: a factory whose returned methods share its private state; each method is short.
  const result = (chargeId: string, outcome: string): ChargeResult => {
    if (outcome === 'succeeded' || outcome === 'requires_action')
      return { status: outcome, chargeId }
    return { status: 'failed', chargeId, failure: outcome as ChargeFailure }
  }

  return {
    kind: 'embedded',

    async saveCard(card: CardDetails): Promise<SavedCard | CardRefusal> {
      const test = TEST_CARDS[card.number]
      if (!test) return { refused: 'not-a-test-card' }
      return {
        paymentMethod: `pm_embedded_${test.behaviour}_${randomBytes(8).toString('hex')}`,
        brand: test.brand,
        last4: card.number.slice(-4),
        expMonth: card.expMonth,
        expYear: card.expYear,
      }
    },

    async charge(request: ChargeRequest): Promise<ChargeResult> {
      const behaviour = PAYMENT_METHOD.exec(request.paymentMethod)?.[1] as Behaviour | undefined
      if (!behaviour) throw new Error('unknown payment method for the embedded gateway')
      const outcome: Outcome = {
        succeeds: 'succeeded' as const,
        declined: 'card_declined' as const,
        insufficient: 'insufficient_funds' as const,
        // Authentication is asked of a cardholder who is present; a renewal of a card that was
        // authenticated at checkout goes through, as with Stripe's off-session exemptions.
        authenticate: request.offSession ? ('succeeded' as const) : ('requires_action' as const),
        'fails-later': request.offSession ? ('card_declined' as const) : ('succeeded' as const),
      }[behaviour]
      const chargeId = `ch_embedded_${randomBytes(10).toString('hex')}`
      // First writer wins: a repeated key (a double click, a retry after a crash) reads back the
      // charge already made instead of making another.
      await db
        .insertInto('payment_gateway_charges')
        .values({
          idempotency_key: request.idempotencyKey,
          charge_id: chargeId,
          payment_method: request.paymentMethod,
          amount_yen: request.amountYen,
          outcome,
          created_at: now(),
        })
        .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
        .execute()
      const stored = await db
        .selectFrom('payment_gateway_charges')
        .select(['charge_id', 'outcome', 'payment_method', 'amount_yen'])
        .where('idempotency_key', '=', request.idempotencyKey)
        .executeTakeFirstOrThrow()
      if (
        stored.payment_method !== request.paymentMethod ||
        stored.amount_yen !== request.amountYen
      ) {
        throw new Error('idempotency key reused with different charge parameters')
      }
      return result(stored.charge_id, stored.outcome)
    },

    async completeAuthentication(chargeId: string, passed: boolean): Promise<ChargeResult> {
      const outcome = passed ? 'succeeded' : 'authentication_failed'
      // Only a charge still waiting for its cardholder moves; a repeat answers its outcome.
      await db
        .updateTable('payment_gateway_charges')
        .set({ outcome })
        .where('charge_id', '=', chargeId)
        .where('outcome', '=', 'requires_action')
        .execute()
      const stored = await db
        .selectFrom('payment_gateway_charges')
        .select(['outcome'])
        .where('charge_id', '=', chargeId)
        .executeTakeFirst()
      if (!stored) throw new Error('unknown charge')
      return result(chargeId, stored.outcome)
    },
  }
}
