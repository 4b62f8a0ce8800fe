import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { cardOf } from './billing-mail.server.ts'
import { cardBrandLabel } from './card.ts'
import type { PaidPlanId } from './plan-catalogue.ts'

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
