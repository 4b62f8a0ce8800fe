import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { insertTestUsers } from '#features/content-test-support.ts'
import { planPrice } from './plan-catalogue.ts'
import type { PlanPrices } from './subscription-records.server.ts'

/** For billing tests: the catalogue's prices before tax. */
export const testPrices: PlanPrices = {
  'premium-monthly': planPrice('premium-monthly', 980),
  'premium-yearly': planPrice('premium-yearly', 9800),
}

/** For billing tests: the learner hana (`user-hana`) with an address receipts are mailed to. */
export async function insertHana(db: Kysely<DB>, at: number): Promise<void> {
  await insertTestUsers(db, ['hana'], at)
  await db
    .insertInto('identity_users')
    .values({
      sub: 'user-hana',
      username: 'hana',
      email: 'hana@techlab.example',
      email_verified: 1,
      status: 'CONFIRMED',
      created_at: at,
      updated_at: at,
    })
    .execute()
}

/** For billing tests: no subscription, charge or mail left from the test before. */
export async function clearBilling(db: Kysely<DB>): Promise<void> {
  for (const table of [
    'subscriptions',
    'charges',
    'payment_gateway_charges',
    'mail_outbox',
  ] as const) {
    await db.deleteFrom(table).execute()
  }
}
