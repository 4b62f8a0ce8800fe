import { randomBytes } from 'node:crypto'
import type { Transaction } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { CardGateway } from '#server/payments/gateway.ts'
import type { Billing, Executor } from './subscription-records.server.ts'

/**
 * Charges through the embedded gateway. Every charge is first written as a `charges` row keyed by
 * its idempotency key and only then asked of the gateway with that key, so a double click, a retry
 * or a process killed mid-renewal neither charges twice nor loses a charge: the next attempt finds
 * the row, asks again with the same key, and the gateway answers the first result.
 */

export async function chargeByKey(db: Executor, key: string) {
  return db.selectFrom('charges').selectAll().where('idempotency_key', '=', key).executeTakeFirst()
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

/** The gateway we charge cards through; only the embedded one is asked for charges. */
export function cardGateway(billing: Billing): CardGateway {
  if (billing.gateway.kind !== 'embedded') throw new Error('this gateway charges by itself')
  return billing.gateway
}
