import type { Kysely, Selectable } from 'kysely'
import type { ContentKind, DB } from '../db/schema.ts'
import { type Actor, mayEdit } from './actor.ts'
import { ContentError } from './content-error.ts'
import { CONTENT_KINDS } from './content-kinds.ts'
import { recordHistoryEvent } from './history/history-events.server.ts'
import { deleteSocialOfSubject } from './social/subject-cleanup.server.ts'

/** The tables of content that has an owner, a draft/published status and a revision. */
export type PublishableTable = 'courses' | 'studies' | 'labs' | 'lab_stories'

/** One kind of content, with the messages its ownership checks give. */
export type EditableKind<T extends PublishableTable> = {
  table: T
  notFound: string
  forbidden: string
}

/**
 * The item an edit is about, once the server has checked the actor may edit it: a guest
 * must sign in; someone else's draft is "not found" (its existence does not leak); someone
 * else's published item is "forbidden".
 */
export async function editableItem<T extends PublishableTable>(
  db: Kysely<DB>,
  kind: EditableKind<T>,
  actor: Actor | undefined,
  id: string,
): Promise<Selectable<DB[T]>> {
  if (!actor) throw ContentError.signInRequired()
  // Every publishable table has the same ownership columns; Kysely cannot type a query over
  // a union of tables, so it is typed against one of them.
  const item = await db
    .selectFrom(kind.table as PublishableTable as 'studies')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
  if (!item) throw ContentError.notFound(kind.notFound)
  if (!mayEdit(actor, item.owner_id)) {
    if (item.status === 'draft') throw ContentError.notFound(kind.notFound)
    throw new ContentError('FORBIDDEN', kind.forbidden)
  }
  return item as unknown as Selectable<DB[T]>
}

/**
 * Runs one edit of an item in a transaction: checks the actor, refuses an edit based on a
 * stale revision, and bumps the revision with the edit, so a second tab cannot overwrite it
 * silently. The guarded update also catches a save that raced in between.
 */
export async function editItem<T extends PublishableTable, R extends object>(
  db: Kysely<DB>,
  kind: EditableKind<T>,
  actor: Actor | undefined,
  id: string,
  basedOn: number,
  now: number,
  work: (trx: Kysely<DB>, item: Selectable<DB[T]>) => Promise<R>,
): Promise<R & { revision: number }> {
  return db.transaction().execute(async (trx) => {
    const item = await editableItem(trx, kind, actor, id)
    if ((item as { revision: number }).revision !== basedOn) throw ContentError.stale()
    const result = await work(trx, item)
    const bumped = await trx
      .updateTable(kind.table as PublishableTable as 'studies')
      .set((eb) => ({ revision: eb('revision', '+', 1), updated_at: now }))
      .where('id', '=', id)
      .where('revision', '=', basedOn)
      .executeTakeFirst()
    if (Number(bumped.numUpdatedRows) !== 1) throw ContentError.stale()
    return { ...result, revision: basedOn + 1 }
  })
}

/** Inside an edit: makes the item published and records it in its owner's history. */
export async function markPublished(
  trx: Kysely<DB>,
  table: PublishableTable,
  item: { id: string; owner_id: string },
  subjectKind: ContentKind,
  now: number,
): Promise<{ publishedAt: number }> {
  await trx
    .updateTable(table as PublishableTable as 'studies')
    .set({ status: 'published', published_at: now })
    .where('id', '=', item.id)
    .execute()
  await recordHistoryEvent(trx, {
    userId: item.owner_id,
    kind: 'published',
    subjectKind,
    subjectId: item.id,
    at: now,
  })
  return { publishedAt: now }
}

/** Inside an edit: takes the item back to draft, so only its owner (and admins) see it. */
export async function markDraft(trx: Kysely<DB>, table: PublishableTable, id: string) {
  await trx
    .updateTable(table as PublishableTable as 'studies')
    .set({ status: 'draft', published_at: null })
    .where('id', '=', id)
    .execute()
  return {}
}

/**
 * Deletes an item the actor may edit; its children and tag links cascade, and its likes,
 * comments and notifications about it go in the same transaction.
 */
export async function deleteItem<T extends PublishableTable>(
  db: Kysely<DB>,
  kind: EditableKind<T>,
  actor: Actor | undefined,
  id: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await editableItem(trx, kind, actor, id)
    await deleteSocialOfSubject(trx, kindOfTable(kind.table), id)
    await trx
      .deleteFrom(kind.table as PublishableTable as 'studies')
      .where('id', '=', id)
      .execute()
  })
}

/** The content kind stored in a table (likes and comments name items by kind). */
function kindOfTable(table: PublishableTable): ContentKind {
  const kinds = Object.keys(CONTENT_KINDS) as ContentKind[]
  const kind = kinds.find((candidate) => CONTENT_KINDS[candidate].table === table)
  if (!kind) throw new Error(`No content kind is stored in ${table}`)
  return kind
}
