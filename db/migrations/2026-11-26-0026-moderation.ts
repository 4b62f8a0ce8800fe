import { type Kysely, sql } from 'kysely'

// Reports and moderation (docs/decisions/039). Users report a message, a user or
// a piece of content; admins hide content, suspend users or dismiss the reports. Hiding is two
// columns on each hideable table (when, and the reason shown to the author), so every read path
// filters with one `hidden_at is null`; every admin action is a row of `moderation_actions`, the
// log shown on the item's page, never overwritten.

const HIDEABLE = ['courses', 'studies', 'labs', 'lab_stories', 'comments', 'dm_messages'] as const

const SUBJECT_KINDS = sql`subject_kind in ('message', 'user', 'course', 'study', 'lab', 'lab_story', 'comment')`

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of HIDEABLE) {
    await db.schema.alterTable(table).addColumn('hidden_at', 'bigint').execute()
    await db.schema.alterTable(table).addColumn('hidden_reason', 'text').execute()
  }
  // When the account was suspended (null: not). The user pool's `enabled` is what refuses
  // sign-in and tokens; this column is what the product shows.
  await db.schema.alterTable('users').addColumn('suspended_at', 'bigint').execute()

  await db.schema
    .createTable('reports')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('reporter_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('subject_kind', 'text', (column) => column.notNull().check(SUBJECT_KINDS))
    .addColumn('subject_id', 'text', (column) => column.notNull())
    // The reported user, or the author of the reported item (null once their account is gone).
    .addColumn('subject_user_id', 'text', (column) =>
      column.references('users.id').onDelete('set null'),
    )
    .addColumn('reason', 'text', (column) =>
      column
        .notNull()
        .check(
          sql`reason in ('spam', 'harassment', 'inappropriate', 'copyright', 'personal_info', 'other')`,
        ),
    )
    .addColumn('note', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('status', 'text', (column) =>
      column.notNull().defaultTo('open').check(sql`status in ('open', 'resolved')`),
    )
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addColumn('resolved_at', 'bigint')
    .execute()
  // One open report per reporter and item: a second report updates the first.
  await db.schema
    .createIndex('reports_open_unique')
    .on('reports')
    .columns(['reporter_id', 'subject_kind', 'subject_id'])
    .unique()
    .where(sql.ref('status'), '=', 'open')
    .execute()
  await db.schema
    .createIndex('reports_subject')
    .on('reports')
    .columns(['subject_kind', 'subject_id', 'status'])
    .execute()
  await db.schema
    .createIndex('reports_status_updated')
    .on('reports')
    .columns(['status', 'updated_at'])
    .execute()

  await db.schema
    .createTable('moderation_actions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('subject_kind', 'text', (column) => column.notNull().check(SUBJECT_KINDS))
    .addColumn('subject_id', 'text', (column) => column.notNull())
    // The admin's sub and name as written: an admin account may be deleted later.
    .addColumn('actor_id', 'text', (column) => column.notNull())
    .addColumn('actor_name', 'text', (column) => column.notNull())
    .addColumn('action', 'text', (column) =>
      column.notNull().check(sql`action in ('hide', 'unhide', 'suspend', 'unsuspend', 'dismiss')`),
    )
    .addColumn('note', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('moderation_actions_subject')
    .on('moderation_actions')
    .columns(['subject_kind', 'subject_id', 'created_at'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('moderation_actions').execute()
  await db.schema.dropTable('reports').execute()
  await db.schema.alterTable('users').dropColumn('suspended_at').execute()
  for (const table of HIDEABLE) {
    await db.schema.alterTable(table).dropColumn('hidden_reason').execute()
    await db.schema.alterTable(table).dropColumn('hidden_at').execute()
  }
}
