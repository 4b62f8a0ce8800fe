import { type Kysely, sql } from 'kysely'

// Plans and card payments (docs/decisions/038). `subscriptions` is the single source of
// "premium" (features/plans/subscription-state.ts); `charges` is the billing history and the
// idempotency record of every charge we ask a gateway for; the embedded test gateway keeps its own
// ledger (`payment_gateway_charges`) as a real provider would, so a retried charge after a crash
// is answered from it instead of charging twice; `payment_webhook_events` makes Stripe's
// deliveries idempotent.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    // One subscription record per learner, reused when they subscribe again.
    .addColumn('user_id', 'text', (column) =>
      column.notNull().unique().references('users.id').onDelete('cascade'),
    )
    .addColumn('plan_id', 'text', (column) =>
      column.notNull().check(sql`plan_id in ('premium-monthly', 'premium-yearly')`),
    )
    .addColumn('next_plan_id', 'text', (column) =>
      column.check(sql`next_plan_id in ('premium-monthly', 'premium-yearly')`),
    )
    .addColumn('status', 'text', (column) =>
      column
        .notNull()
        .check(sql`status in ('active', 'cancel_at_period_end', 'past_due', 'canceled')`),
    )
    .addColumn('current_period_start', 'bigint', (column) => column.notNull())
    .addColumn('current_period_end', 'bigint', (column) => column.notNull())
    .addColumn('past_due_since', 'bigint')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('gateway', 'text', (column) =>
      column.notNull().check(sql`gateway in ('embedded', 'stripe')`),
    )
    // The gateway's reference of the saved card (never its number), and of the customer and the
    // subscription on its side (Stripe).
    .addColumn('payment_method', 'text')
    .addColumn('gateway_customer', 'text')
    .addColumn('gateway_subscription', 'text', (column) => column.unique())
    .addColumn('card_brand', 'text')
    .addColumn('card_last4', 'text')
    .addColumn('card_exp_month', 'integer')
    .addColumn('card_exp_year', 'integer')
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('subscriptions_due')
    .on('subscriptions')
    .columns(['status', 'current_period_end'])
    .execute()

  await db.schema
    .createTable('charges')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('plan_id', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) =>
      column.notNull().check(sql`kind in ('subscribe', 'renewal')`),
    )
    .addColumn('amount_yen', 'integer', (column) => column.notNull())
    .addColumn('tax_yen', 'integer', (column) => column.notNull())
    .addColumn('period_start', 'bigint', (column) => column.notNull())
    .addColumn('period_end', 'bigint', (column) => column.notNull())
    .addColumn('status', 'text', (column) =>
      column.notNull().check(sql`status in ('pending', 'requires_action', 'succeeded', 'failed')`),
    )
    .addColumn('failure_code', 'text')
    .addColumn('card_brand', 'text')
    .addColumn('card_last4', 'text')
    .addColumn('payment_method', 'text')
    // Given to the gateway with the charge: the same key never charges twice.
    .addColumn('idempotency_key', 'text', (column) => column.notNull().unique())
    .addColumn('gateway_charge', 'text')
    .addColumn('receipt_number', 'text', (column) => column.unique())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('charges_user_created')
    .on('charges')
    .columns(['user_id', 'created_at'])
    .execute()

  await db.schema
    .createTable('payment_gateway_charges')
    .addColumn('idempotency_key', 'text', (column) => column.primaryKey())
    .addColumn('charge_id', 'text', (column) => column.notNull().unique())
    .addColumn('payment_method', 'text', (column) => column.notNull())
    .addColumn('amount_yen', 'integer', (column) => column.notNull())
    .addColumn('outcome', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute()

  await db.schema
    .createTable('payment_webhook_events')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('received_at', 'bigint', (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_webhook_events').execute()
  await db.schema.dropTable('payment_gateway_charges').execute()
  await db.schema.dropTable('charges').execute()
  await db.schema.dropTable('subscriptions').execute()
}
