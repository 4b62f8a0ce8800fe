import { type Kysely, sql } from 'kysely'

// Edits of published content wait as a pending revision until the author publishes them with
// 「更新する」 (docs/decisions/048): one row per item, holding the editor's fields as sent (JSON
// text), so readers, search and feeds keep the published row. Kept on the server, so it follows
// the author to another device. Items are named by kind and id (several tables), so the item's
// deletion removes its row in code; the owner's deletion cascades.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pending_revisions')
    .addColumn('subject_kind', 'text', (column) =>
      column
        .notNull()
        .check(sql`subject_kind in ('course', 'lesson', 'study', 'lab', 'lab_story', 'question')`),
    )
    .addColumn('subject_id', 'text', (column) => column.notNull())
    .addColumn('owner_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('fields', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('pending_revisions_pk', ['subject_kind', 'subject_id'])
    .execute()
  await db.schema
    .createIndex('pending_revisions_owner')
    .on('pending_revisions')
    .column('owner_id')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pending_revisions').execute()
}
