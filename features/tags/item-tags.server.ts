import type { Kysely } from 'kysely'
import { newContentId } from '#db/ids.ts'
import type { DB } from '#db/schema.ts'

/** The link table of each content kind (one per kind, so links cascade with their item). */
export type TagLinkTable =
  | 'course_tags'
  | 'study_tags'
  | 'lab_tags'
  | 'lab_story_tags'
  | 'question_tags'

/** Replaces an item's tags with `names` (already normalised), creating tags not seen before. */
export async function replaceItemTags(
  db: Kysely<DB>,
  table: TagLinkTable,
  subjectId: string,
  names: readonly string[],
  now: number,
): Promise<void> {
  await db.deleteFrom(table).where('subject_id', '=', subjectId).execute()
  if (names.length === 0) return
  await db
    .insertInto('tags')
    .values(names.map((name) => ({ id: newContentId(), name, created_at: now })))
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute()
  const tags = await db
    .selectFrom('tags')
    .select(['id', 'name'])
    .where('name', 'in', names)
    .execute()
  const idOf = new Map(tags.map((tag) => [tag.name, tag.id]))
  await db
    .insertInto(table)
    .values(
      names.map((name, position) => ({
        subject_id: subjectId,
        tag_id: idOf.get(name) ?? '',
        position,
      })),
    )
    .execute()
}

/** Tag names of several items of one kind, each in its author's order. */
export async function tagsOfItems(
  db: Kysely<DB>,
  table: TagLinkTable,
  subjectIds: readonly string[],
): Promise<Map<string, string[]>> {
  const tags = new Map<string, string[]>(subjectIds.map((id) => [id, []]))
  if (subjectIds.length === 0) return tags
  const rows = await db
    .selectFrom(table)
    .innerJoin('tags', 'tags.id', `${table}.tag_id`)
    .select([`${table}.subject_id as subjectId`, 'tags.name'])
    .where(`${table}.subject_id`, 'in', subjectIds)
    .orderBy(`${table}.position`)
    .execute()
  for (const row of rows) tags.get(row.subjectId)?.push(row.name)
  return tags
}
