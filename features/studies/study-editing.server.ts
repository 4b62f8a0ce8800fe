import type { Kysely } from 'kysely'
import { newContentId } from '../../db/ids.ts'
import type { DB } from '../../db/schema.ts'
import type { Actor } from '../actor.ts'
import { ContentError, parseInput } from '../content-error.ts'
import { deleteItem, editItem, publishItem, unpublishItem } from '../editable-item.server.ts'
import { replaceItemTags } from '../tags/item-tags.server.ts'
import { STUDY } from './editable-study.server.ts'
import { studyFields, studyUpdate } from './study-input.ts'

/** Creates a study as a draft owned by the actor. */
export async function createStudy(
  db: Kysely<DB>,
  actor: Actor | undefined,
  input: unknown,
  now = Date.now(),
): Promise<{ id: string; revision: number }> {
  if (!actor) throw ContentError.signInRequired()
  const fields = parseInput(studyFields, input)
  const id = newContentId()
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('studies')
      .values({
        id,
        owner_id: actor.userId,
        title: fields.title,
        summary: fields.summary,
        body: fields.notes,
        status: 'draft',
        published_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute()
    await replaceItemTags(trx, 'study_tags', id, fields.tags, now)
  })
  return { id, revision: 1 }
}

/** Saves a study's title, summary, notes and tags (the editor's form, autosaved). */
export async function updateStudy(
  db: Kysely<DB>,
  actor: Actor | undefined,
  studyId: string,
  input: unknown,
  now = Date.now(),
): Promise<{ revision: number }> {
  const fields = parseInput(studyUpdate, input)
  return editItem(db, STUDY, actor, studyId, fields.revision, now, async (trx) => {
    await trx
      .updateTable('studies')
      .set({ title: fields.title, summary: fields.summary, body: fields.notes })
      .where('id', '=', studyId)
      .execute()
    await replaceItemTags(trx, 'study_tags', studyId, fields.tags, now)
    return {}
  })
}

/** Publishes a draft: it appears in the lists, and the author's history records it. */
export function publishStudy(
  db: Kysely<DB>,
  actor: Actor | undefined,
  studyId: string,
  input: unknown,
  now = Date.now(),
): Promise<{ revision: number; publishedAt: number }> {
  return publishItem(db, STUDY, 'study', actor, studyId, input, now)
}

/** Takes a study back to draft: it leaves the lists and only its owner sees it. */
export function unpublishStudy(
  db: Kysely<DB>,
  actor: Actor | undefined,
  studyId: string,
  input: unknown,
  now = Date.now(),
): Promise<{ revision: number }> {
  return unpublishItem(db, STUDY, actor, studyId, input, now)
}

/** Deletes a study with its tag links (foreign keys cascade). */
export async function deleteStudy(
  db: Kysely<DB>,
  actor: Actor | undefined,
  studyId: string,
): Promise<void> {
  await deleteItem(db, STUDY, actor, studyId)
}
