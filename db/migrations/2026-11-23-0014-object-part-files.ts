import type { Kysely } from 'kysely'

// An object completed from several parts is read from the parts' own content items instead of a
// concatenated copy: their ids, in order, as JSON (docs/decisions/010). Null for one-item objects.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('storage_objects').addColumn('part_files', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('storage_objects').dropColumn('part_files').execute()
}
