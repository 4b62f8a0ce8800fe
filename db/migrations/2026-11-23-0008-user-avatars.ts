import type { Kysely } from 'kysely'

// A profile's avatar: the key of a public object in the site's bucket, uploaded by the user.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('avatar_key', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('avatar_key').execute()
}
