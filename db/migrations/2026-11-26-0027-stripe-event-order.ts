import type { Kysely } from 'kysely'

// Stripe mode (docs/decisions/040): webhook events arrive in any order, so each subscription keeps
// when the gateway event it last applied happened (ms since the epoch); an older event never
// overwrites a newer state.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('gateway_event_at', 'bigint').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('gateway_event_at').execute()
}
