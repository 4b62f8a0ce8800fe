import type { Kysely } from 'kysely'
import type { z } from 'zod'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import { insertDraft, itemWrites, saveItemFields } from '#features/editable-item.server.ts'
import {
  checkMarkdownImages,
  checkUploadedImages,
  type ImageStorage,
} from '#features/images/uploaded-image.server.ts'
import { pendingWrites } from '#features/pending-revisions.server.ts'
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

function labItem(fields: LabFields) {
  return {
    columns: {
      title: fields.title,
      description: fields.description,
      repository_url: fields.repositoryUrl,
      demo_url: fields.demoUrl,
    },
    tags: fields.tags,
  }
}

/** Creates a lab as a draft owned by the actor; screenshots must be images they uploaded. */
export async function createLab(
  db: Kysely<DB>,
  images: ImageStorage,
  actor: Actor | undefined,
  input: z.input<typeof labFields>,
  now = Date.now(),
): Promise<{ id: string; revision: number }> {
  if (!actor) throw ContentError.signInRequired()
  const fields = parseInput(labFields, input)
  await checkUploadedImages(images, actor.userId, screenshotFields(fields.screenshotKeys))
  await checkMarkdownImages(images, actor.userId, 'description', fields.description)
  return insertDraft(db, 'labs', actor.userId, labItem(fields), now, (trx, id) =>
    replaceScreenshots(trx, id, fields.screenshotKeys),
  )
}

/**
 * Saving a lab's fields, screenshots and tags (the editor's form, autosaved): new screenshots
 * must be images the lab's owner uploaded; those already on the lab were checked when added. A
 * published lab's edits wait until 「更新する」.
 */
export const {
  update: updateLab,
  publishRevision: publishLabRevision,
  unpublish: unpublishLab,
  discardRevision: discardLabRevision,
} = pendingWrites(LAB, 'lab', (images: ImageStorage) => ({
  update: labUpdate,
  check: async (db, lab, fields) => {
    await checkUploadedImages(
      images,
      lab.owner_id,
      screenshotFields(fields.screenshotKeys),
      new Set(await screenshotKeysOf(db, lab.id)),
    )
    await checkMarkdownImages(
      images,
      lab.owner_id,
      'description',
      fields.description,
      lab.description,
    )
  },
  write: async (trx, id, fields, now) => {
    await saveItemFields(trx, 'labs', id, labItem(fields), now)
    await replaceScreenshots(trx, id, fields.screenshotKeys)
  },
}))

/** Publish and delete (its screenshots and tag links cascade; stories stay, unlinked). */
export const { publish: publishLab, remove: deleteLab } = itemWrites(LAB, 'lab')
