import { type Kysely, PostgresAdapter, sql } from 'kysely'

// The index of the disk object store (server/storage/backends/fs, docs/decisions/010): which
// content file holds each object and each uploaded part, with what S3 answers about it. Keys
// must sort in UTF-8 byte order, S3's order: SQLite's default BINARY collation already does;
// PostgreSQL needs the "C" collation on the key column. Headers, metadata and checksums are
// JSON text, read and written whole.

export async function up(db: Kysely<unknown>): Promise<void> {
  const keyType =
    db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : sql`text`

  await db.schema
    .createTable('storage_buckets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('storage_objects')
    .addColumn('bucket', 'text', (c) => c.notNull().references('storage_buckets.name'))
    .addColumn('key', keyType, (c) => c.notNull())
    .addColumn('file_id', 'text', (c) => c.notNull().unique())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('headers', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('checksum', 'text')
    .addColumn('part_sizes', 'text')
    .addColumn('last_modified', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('storage_objects_pk', ['bucket', 'key'])
    .execute()

  await db.schema
    .createTable('storage_uploads')
    .addColumn('upload_id', 'text', (c) => c.primaryKey())
    .addColumn('bucket', 'text', (c) => c.notNull().references('storage_buckets.name'))
    .addColumn('key', keyType, (c) => c.notNull())
    .addColumn('headers', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('initiated', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('storage_uploads_bucket_key_idx')
    .on('storage_uploads')
    .columns(['bucket', 'key'])
    .execute()
  await db.schema
    .createIndex('storage_uploads_initiated_idx')
    .on('storage_uploads')
    .column('initiated')
    .execute()

  await db.schema
    .createTable('storage_parts')
    .addColumn('upload_id', 'text', (c) => c.notNull().references('storage_uploads.upload_id'))
    .addColumn('part_number', 'integer', (c) => c.notNull())
    .addColumn('file_id', 'text', (c) => c.notNull().unique())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('checksum', 'text')
    .addColumn('last_modified', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('storage_parts_pk', ['upload_id', 'part_number'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('storage_parts').execute()
  await db.schema.dropTable('storage_uploads').execute()
  await db.schema.dropTable('storage_objects').execute()
  await db.schema.dropTable('storage_buckets').execute()
}
