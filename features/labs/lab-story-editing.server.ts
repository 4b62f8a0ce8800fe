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
import { LAB_STORY } from './editable-labs.server.ts'
import { type LabStoryFields, labStoryFields, labStoryUpdate } from './lab-input.ts'

/**
 * Refuses a story's lab and cover unless they are its owner's: a story tells of one of its
 * author's own labs, and its cover is an image they uploaded (unless it is the saved one).
 */
async function checkStoryLinks(
  db: Kysely<DB>,
  images: ImageStorage,
  ownerId: string,
  fields: LabStoryFields,
  saved: { coverKey: string | null; body: string },
): Promise<void> {
  if (fields.labId !== null) {
    const lab = await db
      .selectFrom('labs')
      .select('id')
      .where('id', '=', fields.labId)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst()
    if (!lab) {
      throw new ContentError('VALIDATION_FAILED', '入力内容に誤りがあります', {
        labId: ['ラボが見つかりません。自分のラボから選んでください。'],
      })
    }
  }
  if (fields.coverKey !== null && fields.coverKey !== saved.coverKey) {
    await checkUploadedImages(images, ownerId, new Map([[fields.coverKey, 'coverKey']]))
  }
  await checkMarkdownImages(images, ownerId, 'body', fields.body, saved.body)
}

function storyItem(fields: LabStoryFields) {
  return {
    columns: {
      title: fields.title,
      body: fields.body,
      lab_id: fields.labId,
      cover_key: fields.coverKey,
    },
    tags: fields.tags,
  }
}

/** Creates a lab story as a draft owned by the actor. */
export async function createLabStory(
  db: Kysely<DB>,
  images: ImageStorage,
  actor: Actor | undefined,
  input: z.input<typeof labStoryFields>,
  now = Date.now(),
): Promise<{ id: string; revision: number }> {
  if (!actor) throw ContentError.signInRequired()
  const fields = parseInput(labStoryFields, input)
  await checkStoryLinks(db, images, actor.userId, fields, { coverKey: null, body: '' })
  return insertDraft(db, 'lab_stories', actor.userId, storyItem(fields), now)
}

/**
 * Saving a story's title, body, tags, lab and cover (the editor's form, autosaved; its lab and
 * cover must be its owner's); a published story's edits wait until 「更新する」.
 */
export const {
  update: updateLabStory,
  publishRevision: publishLabStoryRevision,
  unpublish: unpublishLabStory,
  discardRevision: discardLabStoryRevision,
} = pendingWrites(LAB_STORY, 'lab_story', (images: ImageStorage) => ({
  update: labStoryUpdate,
  check: (db, story, fields) =>
    checkStoryLinks(db, images, story.owner_id, fields, {
      coverKey: story.cover_key,
      body: story.body,
    }),
  write: (trx, id, fields, now) => saveItemFields(trx, 'lab_stories', id, storyItem(fields), now),
}))

/** Publish and delete (its tag links cascade). */
export const { publish: publishLabStory, remove: deleteLabStory } = itemWrites(
  LAB_STORY,
  'lab_story',
)
