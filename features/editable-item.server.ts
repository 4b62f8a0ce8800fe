import type { Kysely, Selectable } from 'kysely'
import type { z } from 'zod'
import { newContentId } from '#db/ids.ts'
import type { ContentKind, DB } from '#db/schema.ts'
import { type Actor, mayEdit } from './actor.ts'
import { ContentError, parseInput } from './content-error.ts'
import { CONTENT_KINDS } from './content-kinds.ts'
import { basedOnRevision } from './courses/course-input.ts'
import { recordHistoryEvent } from './history/history-events.server.ts'
import { deleteSocialOfSubject } from './social/subject-cleanup.server.ts'
import { replaceItemTags } from './tags/item-tags.server.ts'

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

/** A kind written by single-page editors, with the link table of its tags. */
type AuthoredTable = 'studies' | 'labs' | 'lab_stories'
const TAG_TABLES = {
  studies: 'study_tags',
  labs: 'lab_tags',
  lab_stories: 'lab_story_tags',
} as const

/**
 * Creates a draft owned by `ownerId` with its own columns and tags in one transaction; `more`
 * adds what else belongs to it (a lab's screenshots). Answers the new id.
 */
export async function insertDraft(
  db: Kysely<DB>,
  table: AuthoredTable,
  ownerId: string,
  item: { columns: Record<string, unknown>; tags: readonly string[] },
  now: number,
  more?: (trx: Kysely<DB>, id: string) => Promise<void>,
): Promise<{ id: string; revision: number }> {
  const id = newContentId()
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto(table as AuthoredTable as 'studies')
      .values({
        ...item.columns,
        id,
        owner_id: ownerId,
        title: String(item.columns.title),
        status: 'draft',
        published_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute()
    await replaceItemTags(trx, TAG_TABLES[table], id, item.tags, now)
    await more?.(trx, id)
  })
  return { id, revision: 1 }
}

/** Inside an edit: saves an item's own columns and its tags. */
export async function saveItemFields(
  trx: Kysely<DB>,
  table: AuthoredTable,
  id: string,
  item: { columns: Record<string, unknown>; tags: readonly string[] },
  now: number,
): Promise<void> {
  await trx
    .updateTable(table as AuthoredTable as 'studies')
    .set(item.columns)
    .where('id', '=', id)
    .execute()
  await replaceItemTags(trx, TAG_TABLES[table], id, item.tags, now)
}

/**
 * Publishes an item whose publishing needs no other check (studies, labs, lab stories): it
 * appears in the lists and its owner's history records it. Publishing it again changes nothing.
 */
export async function publishItem<T extends 'studies' | 'labs' | 'lab_stories'>(
  db: Kysely<DB>,
  kind: EditableKind<T>,
  subjectKind: ContentKind,
  actor: Actor | undefined,
  id: string,
  input: z.input<typeof basedOnRevision>,
  now = Date.now(),
): Promise<{ revision: number; publishedAt: number }> {
  const { revision } = parseInput(basedOnRevision, input)
  return editItem(db, kind, actor, id, revision, now, async (trx, found) => {
    const item = found as Selectable<DB['studies']>
    return item.status === 'published'
      ? { publishedAt: item.published_at ?? now }
      : markPublished(trx, kind.table, item, subjectKind, now)
  })
}

/** Takes an item back to draft: it leaves the lists and only its owner (and admins) see it. */
export async function unpublishItem<T extends PublishableTable>(
  db: Kysely<DB>,
  kind: EditableKind<T>,
  actor: Actor | undefined,
  id: string,
  input: z.input<typeof basedOnRevision>,
  now = Date.now(),
): Promise<{ revision: number }> {
  const { revision } = parseInput(basedOnRevision, input)
  return editItem(db, kind, actor, id, revision, now, (trx) => markDraft(trx, kind.table, id))
}

/**
 * The publish, unpublish and delete of a kind whose writes need no checks of their own
 * (studies, labs, lab stories), bound to its table and history kind.
 */
export function itemWrites<T extends 'studies' | 'labs' | 'lab_stories'>(
  kind: EditableKind<T>,
  subjectKind: ContentKind,
) {
  return {
    publish: (
      db: Kysely<DB>,
      actor: Actor | undefined,
      id: string,
      input: z.input<typeof basedOnRevision>,
      now = Date.now(),
    ): Promise<{ revision: number; publishedAt: number }> =>
      publishItem(db, kind, subjectKind, actor, id, input, now),
    unpublish: (
      db: Kysely<DB>,
      actor: Actor | undefined,
      id: string,
      input: z.input<typeof basedOnRevision>,
      now = Date.now(),
    ): Promise<{ revision: number }> => unpublishItem(db, kind, actor, id, input, now),
    /** Deletes the item with its tag links (and children), which cascade. */
    remove: (db: Kysely<DB>, actor: Actor | undefined, id: string): Promise<void> =>
      deleteItem(db, kind, actor, id),
  }
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
      .deleteFrom('pending_revisions')
      .where('subject_kind', '=', kindOfTable(kind.table))
      .where('subject_id', '=', id)
      .execute()
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
