import { type Kysely, sql } from 'kysely'

// Every migration must run unchanged on SQLite and PostgreSQL: text ids, BIGINT epoch
// milliseconds for times, and CHECK constraints instead of engine-specific enum types.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('username', 'text', (column) => column.notNull().unique())
    .addColumn('display_name', 'text', (column) => column.notNull())
    .addColumn('bio', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute()

  await db.schema
    .createTable('courses')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('summary', 'text', (column) => column.notNull())
    .addColumn('level', 'text', (column) =>
      column.notNull().check(sql`level in ('beginner', 'intermediate', 'advanced')`),
    )
    .addColumn('access', 'text', (column) =>
      column.notNull().check(sql`access in ('free', 'premium')`),
    )
    .addColumn('status', 'text', (column) =>
      column.notNull().check(sql`status in ('draft', 'published')`),
    )
    .addColumn('published_at', 'bigint')
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute()

  // The catalogue pages through published courses newest first, tie-broken by id.
  await db.schema
    .createIndex('courses_catalogue_idx')
    .on('courses')
    .columns(['status', 'published_at desc', 'id desc'])
    .execute()
  await db.schema.createIndex('courses_owner_idx').on('courses').column('owner_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('courses').execute()
  await db.schema.dropTable('users').execute()
}
