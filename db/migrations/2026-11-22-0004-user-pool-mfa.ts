import type { Kysely } from 'kysely'

// What the user pool's MFA needs beyond 0002: an authenticator-app secret that is associated
// but not yet verified (it replaces `totp_secret` only once a code proves the app has it),
// and the last time step whose code was accepted, so that a code cannot be used twice; and
// how many wrong codes a challenge session has seen (it survives a few, then ends).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('identity_users').addColumn('totp_pending_secret', 'text').execute()
  await db.schema.alterTable('identity_users').addColumn('totp_last_used_step', 'bigint').execute()
  await db.schema
    .alterTable('identity_auth_sessions')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('identity_auth_sessions').dropColumn('attempts').execute()
  await db.schema.alterTable('identity_users').dropColumn('totp_last_used_step').execute()
  await db.schema.alterTable('identity_users').dropColumn('totp_pending_secret').execute()
}
