import type { Kysely } from 'kysely'

// An object completed from a multipart upload remembers that upload's id, so that a retried
// CompleteMultipartUpload answers the same result instead of NoSuchUpload, and its parts'
// checksums (JSON, in order) for GetObjectAttributes (docs/decisions/011). Null otherwise.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('storage_objects').addColumn('upload_id', 'text').execute()
  await db.schema.alterTable('storage_objects').addColumn('part_checksums', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('storage_objects').dropColumn('part_checksums').execute()
  await db.schema.alterTable('storage_objects').dropColumn('upload_id').execute()
}
