import { type Kysely, sql } from 'kysely'

// Follows between users, and the profile fields the settings page edits: links (a JSON array
// of URLs) and the time zone /histories counts days in. Portable as in 001: text ids, bigint
// epoch ms; no counters are stored, so follower counts cannot drift from the rows.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('links', 'text', (column) => column.notNull().defaultTo('[]'))
    .execute()
  await db.schema
    .alterTable('users')
    .addColumn('time_zone', 'text', (column) => column.notNull().defaultTo('Asia/Tokyo'))
    .execute()

  await db.schema
    .createTable('follows')
    // A row id of its own so that follower lists page by (created_at, id) like every list.
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('follower_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('followee_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addUniqueConstraint('follows_pair_unique', ['follower_id', 'followee_id'])
    .addCheckConstraint('follows_not_self', sql`follower_id <> followee_id`)
    .execute()
  // `/{user}/followers` and `/{user}/following`, newest first.
  await db.schema
    .createIndex('follows_followee_idx')
    .on('follows')
    .columns(['followee_id', 'created_at desc', 'id desc'])
    .execute()
  await db.schema
    .createIndex('follows_follower_idx')
    .on('follows')
    .columns(['follower_id', 'created_at desc', 'id desc'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('follows').execute()
  await db.schema.alterTable('users').dropColumn('time_zone').execute()
  await db.schema.alterTable('users').dropColumn('links').execute()
}
