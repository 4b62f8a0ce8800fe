import type { Kysely } from 'kysely'
import type { z } from 'zod'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import { basedOnRevision } from '#features/courses/course-input.ts'
import {
  editableItem,
  editItem,
  insertDraft,
  itemWrites,
  markPublished,
  saveItemFields,
} from '#features/editable-item.server.ts'
import type { CodeVerifier } from '#features/exercises/answers.server.ts'
import { PENDING_QUESTIONS } from '#features/exercises/questions.server.ts'
import {
  pendingReferenceFailures,
  referenceFailures,
  referenceRefusal,
} from '#features/exercises/reference-check.server.ts'
import { checkMarkdownImages, type ImageStorage } from '#features/images/uploaded-image.server.ts'
import { pendingWrites } from '#features/pending-revisions.server.ts'
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
 * Saving a study's title, summary, notes and tags (the editor's form, autosaved; images new to
 * its notes must be its owner's); a published study's edits wait until 「更新する」.
 */
const studyWrites = pendingWrites(
  STUDY,
  'study',
  (images: ImageStorage) => ({
    update: studyUpdate,
    check: (_db, study, fields) =>
      checkMarkdownImages(images, study.owner_id, 'notes', fields.notes, study.body),
    write: (trx, id, fields, now) => saveItemFields(trx, 'studies', id, studyItem(fields), now),
  }),
  PENDING_QUESTIONS,
)
export const {
  update: updateStudy,
  unpublish: unpublishStudy,
  discardRevision: discardStudyRevision,
} = studyWrites

/**
 * 「更新する」 of a study: its pending fields and its questions' go live together. A pending
 * code question goes live only once its reference solution passes its tests on the server's
 * `verifier`, as at first publication; otherwise nothing is published and the edits wait.
 */
export async function publishStudyRevision(
  db: Kysely<DB>,
  images: ImageStorage,
  verifier: CodeVerifier,
  actor: Actor | undefined,
  studyId: string,
  input: z.input<typeof basedOnRevision>,
  now = Date.now(),
): Promise<{ revision: number }> {
  return studyWrites.publishRevision(db, images, actor, studyId, input, now, async (parts) => {
    if (!actor) throw ContentError.signInRequired()
    const failures = await pendingReferenceFailures(db, verifier, parts, actor.userId)
    if (failures.length > 0) throw referenceRefusal(failures)
  })
}

/** Delete (its questions and tag links cascade). */
export const { remove: deleteStudy } = itemWrites(STUDY, 'study')

/**
 * Publishes a study: it appears in the lists and the author's history records it. A study
 * with code questions is published only when every reference solution passes its own tests on
 * the server's `verifier`; otherwise the refusal names each failing question.
 * The runs happen before the transaction, and a question changed meanwhile makes it stale.
 */
export async function publishStudy(
  db: Kysely<DB>,
  actor: Actor | undefined,
  studyId: string,
  input: z.input<typeof basedOnRevision>,
  now = Date.now(),
  verifier?: CodeVerifier,
): Promise<{ revision: number; publishedAt: number }> {
  const { revision } = parseInput(basedOnRevision, input)
  // Ownership first, so that someone else learns nothing from the checks.
  const study = await editableItem(db, STUDY, actor, studyId)
  let checked = new Map<string, number>()
  if (study.status !== 'published') {
    const hasCode = await db
      .selectFrom('questions')
      .select('id')
      .where('study_id', '=', studyId)
      .where('kind', '=', 'code')
      .executeTakeFirst()
    if (hasCode) {
      if (!verifier) throw new Error('publishing a study with code questions needs a verifier')
      if (!actor) throw ContentError.signInRequired()
      const found = await referenceFailures(db, verifier, studyId, actor.userId)
      if (found.failures.length > 0) throw referenceRefusal(found.failures)
      checked = found.checked
    }
  }
  return editItem(db, STUDY, actor, studyId, revision, now, async (trx, item) => {
    if (item.status === 'published') return { publishedAt: item.published_at ?? now }
    const current = await trx
      .selectFrom('questions')
      .select(['id', 'revision'])
      .where('study_id', '=', studyId)
      .where('kind', '=', 'code')
      .execute()
    if (
      current.length !== checked.size ||
      current.some((question) => checked.get(question.id) !== question.revision)
    ) {
      throw ContentError.stale()
    }
    return markPublished(trx, 'studies', item, 'study', now)
  })
}
