import type { Kysely, Selectable } from 'kysely'
import type { z } from 'zod'
import type { DB, PendingKind } from '#db/schema.ts'
import type { Actor } from './actor.ts'
import { ContentError, parseInput } from './content-error.ts'
import { basedOnRevision } from './courses/course-input.ts'
import {
  type EditableKind,
  editableItem,
  editItem,
  markDraft,
  type PublishableTable,
} from './editable-item.server.ts'
import type { ImageStorage } from './images/uploaded-image.server.ts'

/** The kinds whose edits of a published item wait here. */
type AuthoredTable = PublishableTable

/**
 * How one kind's editor form is validated and written: the same for an autosave of a draft and
 * for 「更新する」 of a published item's pending revision, so both accept exactly the same.
 */
export type PendingSpec<T extends AuthoredTable, F extends { revision: number }> = {
  kind: EditableKind<T>
  subjectKind: PendingKind
  /** The update's schema (the form's fields and the revision they were based on). */
  update: z.ZodType<F>
  /** Checks against the saved row that need no transaction (images the owner uploaded…). */
  check(db: Kysely<DB>, item: Selectable<DB[T]>, fields: F): Promise<void>
  /** Writes the fields to the item's row (and its tags, screenshots…). */
  write(trx: Kysely<DB>, id: string, fields: F, now: number): Promise<void>
  parts?: PendingDependents
}

/**
 * Parts of an item that are edited on their own pages but published with it (a study's
 * questions): their pending revisions go live with the item's 「更新する」.
 */
export type PendingDependents = {
  kind: PendingKind
  /** The ids of the item's parts. */
  of(db: Kysely<DB>, id: string): Promise<string[]>
  /** Inside the transaction: writes a part's pending fields (as sent) to its row. */
  apply(trx: Kysely<DB>, partId: string, fields: unknown, now: number): Promise<void>
}

/** One part's pending revision: its id and its fields as saved (JSON text). */
export type PendingPart = { subject_id: string; fields: string }

/**
 * A check of the parts' pending fields before they go live (a study's reference solutions), run
 * outside the transaction; the parts are applied only if their pending fields are still these.
 */
export type PendingPartsCheck = (parts: readonly PendingPart[]) => Promise<void>

/** The pending revisions of an item's parts. */
async function pendingParts(db: Kysely<DB>, parts: PendingDependents | undefined, id: string) {
  if (!parts) return []
  const ids = await parts.of(db, id)
  if (ids.length === 0) return []
  return db
    .selectFrom('pending_revisions')
    .select(['subject_id', 'fields', 'created_at'])
    .where('subject_kind', '=', parts.kind)
    .where('subject_id', 'in', ids)
    .execute()
}

export async function pendingRow(db: Kysely<DB>, kind: PendingKind, id: string) {
  return db
    .selectFrom('pending_revisions')
    .selectAll()
    .where('subject_kind', '=', kind)
    .where('subject_id', '=', id)
    .executeTakeFirst()
}

/** Keeps a published item's (or lesson's) edited fields as its pending revision. */
export async function holdPendingRevision(
  trx: Kysely<DB>,
  kind: PendingKind,
  id: string,
  ownerId: string,
  form: object,
  now: number,
): Promise<void> {
  const fields = JSON.stringify(form)
  await trx
    .insertInto('pending_revisions')
    .values({
      subject_kind: kind,
      subject_id: id,
      owner_id: ownerId,
      fields,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) =>
      conflict.columns(['subject_kind', 'subject_id']).doUpdateSet({ fields, updated_at: now }),
    )
    .execute()
}

/** Drops an item's pending revision (after it was published, discarded, or the item deleted). */
export async function dropPendingRevision(
  trx: Kysely<DB>,
  kind: PendingKind,
  id: string,
): Promise<void> {
  await trx
    .deleteFrom('pending_revisions')
    .where('subject_kind', '=', kind)
    .where('subject_id', '=', id)
    .execute()
}

/**
 * Saves the editor's form: a draft's row is written at once; a published item's row stays as
 * readers see it (and as search and feeds know it), and the form waits as its pending revision
 * until 「更新する」. Either way the item's revision moves, so another tab's save is refused.
 */
export async function saveEditorFields<T extends AuthoredTable, F extends { revision: number }>(
  db: Kysely<DB>,
  spec: PendingSpec<T, F>,
  actor: Actor | undefined,
  id: string,
  input: unknown,
  now = Date.now(),
): Promise<{ revision: number }> {
  const fields = parseInput(spec.update, input)
  // Ownership first, so that someone else learns nothing from the checks.
  const item = await editableItem(db, spec.kind, actor, id)
  await spec.check(db, item, fields)
  return editItem(db, spec.kind, actor, id, fields.revision, now, async (trx, current) => {
    const row = current as Selectable<DB['studies']>
    if (row.status === 'published') {
      const { revision: _, ...form } = input as Record<string, unknown>
      await holdPendingRevision(trx, spec.subjectKind, id, row.owner_id, form, now)
      return {}
    }
    await spec.write(trx, id, fields, now)
    // A draft's row is what the editor shows: nothing waits beside it.
    await dropPendingRevision(trx, spec.subjectKind, id)
    return {}
  })
}

/**
 * 「更新する」: the pending revision becomes the published version, checked and written as any
 * save; readers, search and feeds see it from now on.
 */
export async function publishPendingRevision<
  T extends AuthoredTable,
  F extends { revision: number },
>(
  db: Kysely<DB>,
  spec: PendingSpec<T, F>,
  actor: Actor | undefined,
  id: string,
  input: z.input<typeof basedOnRevision>,
  now = Date.now(),
  checkParts?: PendingPartsCheck,
): Promise<{ revision: number }> {
  const { revision } = parseInput(basedOnRevision, input)
  const item = await editableItem(db, spec.kind, actor, id)
  const pending = await pendingRow(db, spec.subjectKind, id)
  const parts = await pendingParts(db, spec.parts, id)
  if (!pending && parts.length === 0) {
    throw new ContentError('CONFLICT', 'まだ公開していない変更はありません')
  }
  const fields = pending && parseInput(spec.update, { ...JSON.parse(pending.fields), revision })
  if (fields) await spec.check(db, item, fields)
  if (parts.length > 0) await checkParts?.(parts)
  return editItem(db, spec.kind, actor, id, revision, now, async (trx) => {
    // A part saved again meanwhile (its edits leave the item's revision alone) was not checked,
    // and its newer text must not be dropped.
    const current = await pendingParts(trx, spec.parts, id)
    const seen = new Map(parts.map((part) => [part.subject_id, part.fields]))
    if (
      current.length !== parts.length ||
      current.some((part) => seen.get(part.subject_id) !== part.fields)
    ) {
      throw ContentError.stale()
    }
    if (fields) {
      await spec.write(trx, id, fields, now)
      await dropPendingRevision(trx, spec.subjectKind, id)
    }
    for (const part of parts) {
      if (!spec.parts) break
      await spec.parts.apply(trx, part.subject_id, JSON.parse(part.fields), now)
      await dropPendingRevision(trx, spec.parts.kind, part.subject_id)
    }
    return {}
  })
}

/**
 * 「非公開に戻す」: the item goes back to draft, and its pending revision (and its parts') becomes
 * the draft's text, since a draft's editor and 公開する work on the row. The fields were checked
 * when saved; a pending revision that no longer reads under today's rules stays as it is.
 */
export async function unpublishWithPendingRevision<
  T extends AuthoredTable,
  F extends { revision: number },
>(
  db: Kysely<DB>,
  spec: PendingSpec<T, F>,
  actor: Actor | undefined,
  id: string,
  input: z.input<typeof basedOnRevision>,
  now = Date.now(),
): Promise<{ revision: number }> {
  const { revision } = parseInput(basedOnRevision, input)
  return editItem(db, spec.kind, actor, id, revision, now, async (trx) => {
    const pending = await pendingRow(trx, spec.subjectKind, id)
    const fields =
      pending && spec.update.safeParse({ ...JSON.parse(pending.fields), revision }).data
    if (fields) {
      await spec.write(trx, id, fields, now)
      await dropPendingRevision(trx, spec.subjectKind, id)
    }
    for (const part of await pendingParts(trx, spec.parts, id)) {
      if (!spec.parts) break
      const applied = await spec.parts
        .apply(trx, part.subject_id, JSON.parse(part.fields), now)
        .then(
          () => true,
          (error: unknown) => {
            // Refused before anything was written: the part's text waits, shown as far as it reads.
            if (error instanceof ContentError) return false
            throw error
          },
        )
      if (applied) await dropPendingRevision(trx, spec.parts.kind, part.subject_id)
    }
    return markDraft(trx, spec.kind.table, id)
  })
}

/** 「変更を破棄」: drops the pending revision; the editor goes back to the published version. */
export async function discardPendingRevision<T extends AuthoredTable>(
  db: Kysely<DB>,
  kind: EditableKind<T>,
  subjectKind: PendingKind,
  actor: Actor | undefined,
  id: string,
  input: z.input<typeof basedOnRevision>,
  now = Date.now(),
  parts?: PendingDependents,
): Promise<{ revision: number }> {
  const { revision } = parseInput(basedOnRevision, input)
  return editItem(db, kind, actor, id, revision, now, async (trx) => {
    await dropPendingRevision(trx, subjectKind, id)
    for (const part of await pendingParts(trx, parts, id)) {
      if (parts) await dropPendingRevision(trx, parts.kind, part.subject_id)
    }
    return {}
  })
}

/**
 * The editor's view of an item: its pending revision's fields (as the form's schema reads
 * them) over the saved ones, and since when they wait (null: nothing pending).
 */
export async function withPendingRevision<D extends object>(
  db: Kysely<DB>,
  subjectKind: PendingKind,
  id: string,
  fields: z.ZodType<Partial<D>>,
  draft: D,
  parts?: PendingDependents,
): Promise<D & { pendingSince: number | null }> {
  const pending = await pendingRow(db, subjectKind, id)
  const since = [pending, ...(await pendingParts(db, parts, id))].flatMap((row) =>
    row ? [row.created_at] : [],
  )
  const pendingSince = since.length > 0 ? Math.min(...since) : null
  const parsed = pending && fields.safeParse(JSON.parse(pending.fields))
  // A pending revision written under older rules is still shown as far as it reads.
  if (!parsed?.success) return { ...draft, pendingSince }
  return { ...draft, ...parsed.data, pendingSince }
}

/**
 * A kind's editor writes bound to it, given how its form is checked and written (which needs
 * the site's image storage): save, 「更新する」 and 「変更を破棄」.
 */
export function pendingWrites<T extends AuthoredTable, U extends z.ZodType<{ revision: number }>>(
  kind: EditableKind<T>,
  subjectKind: PendingKind,
  specOf: (images: ImageStorage) => Omit<
    PendingSpec<T, z.output<U>>,
    'kind' | 'subjectKind' | 'parts'
  > & {
    update: U
  },
  parts?: PendingDependents,
) {
  const spec = (images: ImageStorage): PendingSpec<T, z.output<U>> => ({
    ...specOf(images),
    kind,
    subjectKind,
    parts,
  })
  return {
    /** Saves the editor's form; a published item's edits wait as its pending revision. */
    update: (
      db: Kysely<DB>,
      images: ImageStorage,
      actor: Actor | undefined,
      id: string,
      input: z.input<U>,
      now = Date.now(),
    ): Promise<{ revision: number }> => saveEditorFields(db, spec(images), actor, id, input, now),
    /** 「更新する」: the pending revision becomes what readers see. */
    publishRevision: (
      db: Kysely<DB>,
      images: ImageStorage,
      actor: Actor | undefined,
      id: string,
      input: z.input<typeof basedOnRevision>,
      now = Date.now(),
      checkParts?: PendingPartsCheck,
    ): Promise<{ revision: number }> =>
      publishPendingRevision(db, spec(images), actor, id, input, now, checkParts),
    /** 「非公開に戻す」: back to draft, with the pending revision as the draft's text. */
    unpublish: (
      db: Kysely<DB>,
      images: ImageStorage,
      actor: Actor | undefined,
      id: string,
      input: z.input<typeof basedOnRevision>,
      now = Date.now(),
    ): Promise<{ revision: number }> =>
      unpublishWithPendingRevision(db, spec(images), actor, id, input, now),
    /** 「変更を破棄」: drops the pending revision. */
    discardRevision: (
      db: Kysely<DB>,
      actor: Actor | undefined,
      id: string,
      input: z.input<typeof basedOnRevision>,
      now = Date.now(),
    ): Promise<{ revision: number }> =>
      discardPendingRevision(db, kind, subjectKind, actor, id, input, now, parts),
  }
}
