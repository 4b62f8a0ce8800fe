import { type Kysely, sql } from 'kysely'

// The user pool, identity pool and mail outbox. Flags are integers 0/1 and times are BIGINT
// epoch milliseconds, as everywhere (docs/decisions/003). Secrets are kept only in forms
// that cannot be turned back into them: SRP verifiers, code hashes, token hashes; the one
// exception, a temporary credential's secret, is encrypted (the object store needs it to
// check signatures).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('identity_users')
    .addColumn('sub', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('phone_number', 'text')
    .addColumn('phone_number_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`status in ('UNCONFIRMED', 'CONFIRMED', 'FORCE_CHANGE_PASSWORD', 'RESET_REQUIRED', 'EXTERNAL_PROVIDER')`,
        ),
    )
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('password_salt', 'text')
    .addColumn('password_verifier', 'text')
    .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('totp_secret', 'text')
    .addColumn('totp_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sms_mfa_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('preferred_mfa', 'text')
    .addColumn('failed_sign_ins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint')
    .addColumn('tokens_valid_after', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('identity_users_email_idx')
    .on('identity_users')
    .column('email')
    .execute()

  await db.schema
    .createTable('identity_user_groups')
    .addColumn('sub', 'text', (c) =>
      c.notNull().references('identity_users.sub').onDelete('cascade'),
    )
    .addColumn('group_name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('identity_user_groups_pk', ['sub', 'group_name'])
    .execute()

  await db.schema
    .createTable('identity_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sub', 'text', (c) =>
      c.notNull().references('identity_users.sub').onDelete('cascade'),
    )
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('identity_codes_sub_purpose_idx')
    .on('identity_codes')
    .columns(['sub', 'purpose', 'created_at'])
    .execute()

  await db.schema
    .createTable('identity_auth_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('sub', 'text', (c) => c.references('identity_users.sub').onDelete('cascade'))
    .addColumn('challenge', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('identity_refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('sub', 'text', (c) =>
      c.notNull().references('identity_users.sub').onDelete('cascade'),
    )
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('origin_jti', 'text', (c) => c.notNull().unique())
    .addColumn('device_key', 'text')
    .addColumn('auth_time', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('identity_refresh_tokens_sub_idx')
    .on('identity_refresh_tokens')
    .column('sub')
    .execute()

  await db.schema
    .createTable('identity_devices')
    .addColumn('device_key', 'text', (c) => c.primaryKey())
    .addColumn('sub', 'text', (c) =>
      c.notNull().references('identity_users.sub').onDelete('cascade'),
    )
    .addColumn('device_group_key', 'text', (c) => c.notNull())
    .addColumn('password_salt', 'text')
    .addColumn('password_verifier', 'text')
    .addColumn('name', 'text')
    .addColumn('remembered_status', 'text', (c) =>
      c.notNull().check(sql`remembered_status in ('remembered', 'not_remembered')`),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_modified_at', 'bigint', (c) => c.notNull())
    .addColumn('last_authenticated_at', 'bigint')
    .execute()
  await db.schema
    .createIndex('identity_devices_sub_idx')
    .on('identity_devices')
    .column('sub')
    .execute()

  await db.schema
    .createTable('identity_pool_identities')
    .addColumn('identity_id', 'text', (c) => c.primaryKey())
    .addColumn('login', 'text', (c) => c.unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('identity_credentials')
    .addColumn('access_key_id', 'text', (c) => c.primaryKey())
    .addColumn('identity_id', 'text', (c) =>
      c.notNull().references('identity_pool_identities.identity_id').onDelete('cascade'),
    )
    .addColumn('secret_ciphertext', 'text', (c) => c.notNull())
    .addColumn('session_token_hash', 'text', (c) => c.notNull())
    .addColumn('authenticated', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('identity_credentials_expiry_idx')
    .on('identity_credentials')
    .column('expires_at')
    .execute()

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('mail_outbox_pending_idx')
    .on('mail_outbox')
    .columns(['sent_at', 'created_at'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'mail_outbox',
    'identity_credentials',
    'identity_pool_identities',
    'identity_devices',
    'identity_refresh_tokens',
    'identity_auth_sessions',
    'identity_codes',
    'identity_user_groups',
    'identity_users',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
