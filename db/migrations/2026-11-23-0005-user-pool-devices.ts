import type { Kysely } from 'kysely'

// What remembered devices need beyond 0002: the address a device last signed in from (Cognito
// reports it as `last_ip_used`), and an index to find the sessions started on a device, which
// ForgetDevice revokes.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('identity_devices').addColumn('last_ip_used', 'text').execute()
  await db.schema
    .createIndex('identity_refresh_tokens_device_idx')
    .on('identity_refresh_tokens')
    .column('device_key')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('identity_refresh_tokens_device_idx').execute()
  await db.schema.alterTable('identity_devices').dropColumn('last_ip_used').execute()
}
