import type { Kysely } from 'kysely'

// A lab story's cover image: the key of a public object its author uploaded, like courses.cover_key.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lab_stories').addColumn('cover_key', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lab_stories').dropColumn('cover_key').execute()
}
