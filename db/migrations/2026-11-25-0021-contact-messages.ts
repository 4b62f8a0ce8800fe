import { type Kysely, sql } from 'kysely'

// The contact form (/contact) and its admin inbox (/admin/contact), docs/decisions/030. A message
// keeps its sender as written (guests have no account); every admin action on it (a reply,
// closing, reopening) is an event row naming who and when, so the history is never overwritten.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('contact_messages')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('category', 'text', (column) =>
      column.notNull().check(sql`category in ('course', 'bug', 'payment', 'other')`),
    )
    .addColumn('body', 'text', (column) => column.notNull())
    // The signed-in sender's account, if any; a message outlives the account.
    .addColumn('user_id', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (column) =>
      column.notNull().defaultTo('new').check(sql`status in ('new', 'answered', 'closed')`),
    )
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('contact_messages_status_created')
    .on('contact_messages')
    .columns(['status', 'created_at'])
    .execute()
  await db.schema
    .createIndex('contact_messages_created')
    .on('contact_messages')
    .column('created_at')
    .execute()

  await db.schema
    .createTable('contact_message_events')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('message_id', 'text', (column) =>
      column.notNull().references('contact_messages.id').onDelete('cascade'),
    )
    // The admin's user-pool sub; kept as written, since an admin account may be deleted later.
    .addColumn('actor_id', 'text', (column) => column.notNull())
    .addColumn('actor_name', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) =>
      column.notNull().check(sql`kind in ('reply', 'closed', 'reopened')`),
    )
    // The reply's text; null for status changes.
    .addColumn('body', 'text')
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('contact_message_events_message')
    .on('contact_message_events')
    .columns(['message_id', 'created_at'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('contact_message_events').execute()
  await db.schema.dropTable('contact_messages').execute()
}
