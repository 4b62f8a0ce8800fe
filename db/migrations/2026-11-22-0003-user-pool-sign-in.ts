import type { Kysely } from 'kysely'

// What the user pool's sign-in needs beyond 0002: when the last failed sign-in happened (old
// failures are forgotten), when an administrator's temporary password stops working, and
// indexes for the sweep that deletes expired sessions, codes and refresh tokens.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('identity_users')
    .addColumn('last_failed_sign_in_at', 'bigint')
    .execute()
  await db.schema
    .alterTable('identity_users')
    .addColumn('temporary_password_expires_at', 'bigint')
    .execute()
  await db.schema
    .createIndex('identity_auth_sessions_expiry_idx')
    .on('identity_auth_sessions')
    .column('expires_at')
    .execute()
  await db.schema
    .createIndex('identity_codes_expiry_idx')
    .on('identity_codes')
    .column('expires_at')
    .execute()
  await db.schema
    .createIndex('identity_refresh_tokens_expiry_idx')
    .on('identity_refresh_tokens')
    .column('expires_at')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('identity_refresh_tokens_expiry_idx').execute()
  await db.schema.dropIndex('identity_codes_expiry_idx').execute()
  await db.schema.dropIndex('identity_auth_sessions_expiry_idx').execute()
  await db.schema.alterTable('identity_users').dropColumn('temporary_password_expires_at').execute()
  await db.schema.alterTable('identity_users').dropColumn('last_failed_sign_in_at').execute()
}
