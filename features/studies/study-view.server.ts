import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { editableItem } from '#features/editable-item.server.ts'
import { exerciseProgressOfStudies } from '#features/exercises/exercise-set.server.ts'
import { PENDING_QUESTIONS } from '#features/exercises/questions.server.ts'
import { withPendingRevision } from '#features/pending-revisions.server.ts'
import { readableItem } from '#features/readable-item.server.ts'
import type { StudyDraft, StudyView } from '#features/studies/study-views.ts'
import { tagsOfItems } from '#features/tags/item-tags.server.ts'
import { STUDY } from './editable-study.server.ts'
import { studyFields } from './study-input.ts'

export type { StudyDraft, StudyView }

export type StudyAddress = { username: string; studyId: string }

/**
 * A study as `viewer` (undefined for a guest) may see it. Drafts exist only for their owner
 * and admins: anyone else gets "not found", never "forbidden", so a draft does not leak. The
 * editor opens the same view (it refuses it unless `canEdit`).
 */
export async function readStudyForViewer(
  db: Kysely<DB>,
  address: StudyAddress,
  viewer: Actor | undefined,
): Promise<StudyView> {
  const {
    row: study,
    author,
    canEdit,
    hidden,
  } = await readableItem(
    db,
    'studies',
    { username: address.username, id: address.studyId },
    viewer,
    STUDY.notFound,
  )
  const [tags, exercises] = await Promise.all([
    tagsOfItems(db, 'study_tags', [study.id]),
    exerciseProgressOfStudies(db, viewer?.userId, [study.id]),
  ])
  return {
    id: study.id,
    title: study.title,
    summary: study.summary,
    notes: study.body,
    tags: tags.get(study.id) ?? [],
    exercises: exercises.get(study.id) ?? { solved: 0, total: 0 },
    status: study.status,
    publishedAt: study.status === 'published' ? study.published_at : null,
    updatedAt: study.updated_at,
    revision: study.revision,
    author,
    canEdit,
    hidden,
  }
}

/** The study as its editor opens it; only for its owner or an admin (see editableItem). */
export async function readStudyForEditor(
  db: Kysely<DB>,
  actor: Actor | undefined,
  studyId: string,
): Promise<StudyDraft> {
  const study = await editableItem(db, STUDY, actor, studyId)
  const tags = await tagsOfItems(db, 'study_tags', [study.id])
  return withPendingRevision(
    db,
    'study',
    study.id,
    studyFields,
    {
      id: study.id,
      title: study.title,
      summary: study.summary,
      notes: study.body,
      tags: tags.get(study.id) ?? [],
      status: study.status,
      revision: study.revision,
    },
    PENDING_QUESTIONS,
  )
}
