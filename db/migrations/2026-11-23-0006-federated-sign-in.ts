import type { Kysely } from 'kysely'

// What Google sign-in through the hosted OAuth endpoints needs beyond 0004: which external
// identity (provider and the provider's subject) belongs to which account, and the OAuth
// scopes a sign-in session was granted, which its refreshed access tokens keep.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('identity_user_links')
    .addColumn('provider_name', 'text', (c) => c.notNull())
    .addColumn('provider_user_id', 'text', (c) => c.notNull())
    .addColumn('sub', 'text', (c) =>
      c.notNull().references('identity_users.sub').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('identity_user_links_pk', ['provider_name', 'provider_user_id'])
    .execute()
  await db.schema
    .createIndex('identity_user_links_sub_idx')
    .on('identity_user_links')
    .column('sub')
    .execute()
  await db.schema.alterTable('identity_refresh_tokens').addColumn('scope', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('identity_refresh_tokens').dropColumn('scope').execute()
  await db.schema.dropTable('identity_user_links').execute()
}
