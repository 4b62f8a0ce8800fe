import type { Kysely } from 'kysely'
import { newContentId } from '../../db/ids.ts'
import type { DB } from '../../db/schema.ts'
import type { Actor } from '../actor.ts'
import { ContentError, parseInput } from '../content-error.ts'
import {
  deleteItem,
  editableItem,
  editItem,
  publishItem,
  unpublishItem,
} from '../editable-item.server.ts'
import { replaceItemTags } from '../tags/item-tags.server.ts'
import { type ContentImages, checkOwnedImages } from '../uploads/owned-images.server.ts'
import { LAB } from './editable-labs.server.ts'
import { type LabFields, labFields, labUpdate } from './lab-input.ts'

/** Each screenshot key with the form field its message belongs to. */
function screenshotFields(keys: readonly string[]): Map<string, string> {
  return new Map(keys.map((key, index) => [key, `screenshotKeys.${index}`]))
}

/** A lab's screenshots in the author's order. */
export async function screenshotKeysOf(db: Kysely<DB>, labId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('lab_screenshots')
    .select('object_key')
    .where('lab_id', '=', labId)
    .orderBy('position')
    .execute()
  return rows.map((row) => row.object_key)
}

async function replaceScreenshots(trx: Kysely<DB>, labId: string, keys: readonly string[]) {
  await trx.deleteFrom('lab_screenshots').where('lab_id', '=', labId).execute()
  if (keys.length === 0) return
  await trx
    .insertInto('lab_screenshots')
    .values(keys.map((object_key, position) => ({ lab_id: labId, object_key, position })))
    .execute()
}

function labColumns(fields: LabFields) {
  return {
    title: fields.title,
    description: fields.description,
    repository_url: fields.repositoryUrl,
    demo_url: fields.demoUrl,
  }
}

/** Creates a lab as a draft owned by the actor; screenshots must be images they uploaded. */
export async function createLab(
  db: Kysely<DB>,
  images: ContentImages,
  actor: Actor | undefined,
  input: unknown,
  now = Date.now(),
): Promise<{ id: string; revision: number }> {
  if (!actor) throw ContentError.signInRequired()
  const fields = parseInput(labFields, input)
  await checkOwnedImages(images, actor.userId, screenshotFields(fields.screenshotKeys))
  const id = newContentId()
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('labs')
      .values({
        id,
        owner_id: actor.userId,
        ...labColumns(fields),
        status: 'draft',
        published_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute()
    await replaceScreenshots(trx, id, fields.screenshotKeys)
    await replaceItemTags(trx, 'lab_tags', id, fields.tags, now)
  })
  return { id, revision: 1 }
}

/**
 * Saves a lab's fields, screenshots and tags (the editor's form, autosaved). New screenshots
 * must be images the lab's owner uploaded; those already on the lab were checked when added.
 */
export async function updateLab(
  db: Kysely<DB>,
  images: ContentImages,
  actor: Actor | undefined,
  labId: string,
  input: unknown,
  now = Date.now(),
): Promise<{ revision: number }> {
  const fields = parseInput(labUpdate, input)
  // Ownership first, so that someone else learns nothing from the image checks.
  const lab = await editableItem(db, LAB, actor, labId)
  await checkOwnedImages(
    images,
    lab.owner_id,
    screenshotFields(fields.screenshotKeys),
    new Set(await screenshotKeysOf(db, labId)),
  )
  return editItem(db, LAB, actor, labId, fields.revision, now, async (trx) => {
    await trx.updateTable('labs').set(labColumns(fields)).where('id', '=', labId).execute()
    await replaceScreenshots(trx, labId, fields.screenshotKeys)
    await replaceItemTags(trx, 'lab_tags', labId, fields.tags, now)
    return {}
  })
}

export function publishLab(
  db: Kysely<DB>,
  actor: Actor | undefined,
  labId: string,
  input: unknown,
  now = Date.now(),
): Promise<{ revision: number; publishedAt: number }> {
  return publishItem(db, LAB, 'lab', actor, labId, input, now)
}

export function unpublishLab(
  db: Kysely<DB>,
  actor: Actor | undefined,
  labId: string,
  input: unknown,
  now = Date.now(),
): Promise<{ revision: number }> {
  return unpublishItem(db, LAB, actor, labId, input, now)
}

/** Deletes a lab with its screenshots and tag links; its stories stay, unlinked (set null). */
export async function deleteLab(
  db: Kysely<DB>,
  actor: Actor | undefined,
  labId: string,
): Promise<void> {
  await deleteItem(db, LAB, actor, labId)
}
