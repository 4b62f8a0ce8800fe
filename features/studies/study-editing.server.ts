import type { Kysely } from 'kysely'
import type { z } from 'zod'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import {
  editableItem,
  editItem,
  insertDraft,
  itemWrites,
  saveItemFields,
} from '#features/editable-item.server.ts'
import { checkMarkdownImages, type ImageStorage } from '#features/images/uploaded-image.server.ts'
import { STUDY } from './editable-study.server.ts'
import { type StudyFields, studyFields, studyUpdate } from './study-input.ts'

/** A study's columns (its notes are the `body` column) and tags. */
function studyItem(fields: StudyFields) {
  return {
    columns: { title: fields.title, summary: fields.summary, body: fields.notes },
    tags: fields.tags,
  }
}

/** Creates a study as a draft owned by the actor; images in its notes must be theirs. */
export async function createStudy(
  db: Kysely<DB>,
  images: ImageStorage,
  actor: Actor | undefined,
  input: z.input<typeof studyFields>,
  now = Date.now(),
): Promise<{ id: string; revision: number }> {
  if (!actor) throw ContentError.signInRequired()
  const fields = parseInput(studyFields, input)
  await checkMarkdownImages(images, actor.userId, 'notes', fields.notes)
  return insertDraft(db, 'studies', actor.userId, studyItem(fields), now)
}

/**
 * Saves a study's title, summary, notes and tags (the editor's form, autosaved). Images new to
 * its notes must be ones the study's owner uploaded.
 */
export async function updateStudy(
  db: Kysely<DB>,
  images: ImageStorage,
  actor: Actor | undefined,
  studyId: string,
  input: z.input<typeof studyUpdate>,
  now = Date.now(),
): Promise<{ revision: number }> {
  const fields = parseInput(studyUpdate, input)
  // Ownership first, so that someone else learns nothing from the image checks.
  const study = await editableItem(db, STUDY, actor, studyId)
  await checkMarkdownImages(images, study.owner_id, 'notes', fields.notes, study.body)
  return editItem(db, STUDY, actor, studyId, fields.revision, now, async (trx) => {
    await saveItemFields(trx, 'studies', studyId, studyItem(fields), now)
    return {}
  })
}

/**
 * Publish (it appears in the lists, the author's history records it), unpublish (only its
 * owner sees it again) and delete (its tag links cascade).
 */
export const {
  publish: publishStudy,
  unpublish: unpublishStudy,
  remove: deleteStudy,
} = itemWrites(STUDY, 'study')
