import { type Kysely, sql } from 'kysely'

// User Markdown rendered once, off the request thread, and kept (docs/decisions/022): one row
// per rendered text, keyed like likes and comments by (kind, id). A row is used only while its
// source hash and renderer version match, so an edit or a new renderer re-renders on next read.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rendered_markdown')
    .addColumn('subject_kind', 'text', (column) =>
      column
        .notNull()
        .check(sql`subject_kind in ('lesson', 'study', 'lab', 'lab_story', 'comment')`),
    )
    .addColumn('subject_id', 'text', (column) => column.notNull())
    // SHA-256 of the Markdown, hex: the row belongs to this text and no other.
    .addColumn('source_hash', 'text', (column) => column.notNull())
    .addColumn('renderer_version', 'integer', (column) => column.notNull())
    .addColumn('html', 'text', (column) => column.notNull())
    .addColumn('rendered_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('rendered_markdown_pk', ['subject_kind', 'subject_id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rendered_markdown').execute()
}
