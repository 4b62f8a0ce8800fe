import type { Kysely, Selectable } from 'kysely'
import type { DB, PublicationStatus } from '#db/schema.ts'
import { type Actor, mayEdit } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import { editableItem } from '#features/editable-item.server.ts'
import type { LabDraft, LabStoryDraft, LabStoryView, LabView } from '#features/labs/lab-views.ts'
import { withPendingRevision } from '#features/pending-revisions.server.ts'
import { readableItem } from '#features/readable-item.server.ts'
import { tagsOfItems } from '#features/tags/item-tags.server.ts'
import { LAB, LAB_STORY } from './editable-labs.server.ts'
import { screenshotKeysOf } from './lab-editing.server.ts'
import { labFields, labStoryFields } from './lab-input.ts'

export type { LabDraft, LabStoryDraft, LabStoryView, LabView }

/** A lab as `viewer` may see it; someone else's draft is "not found". */
export async function readLabForViewer(
  db: Kysely<DB>,
  address: { username: string; labId: string },
  viewer: Actor | undefined,
): Promise<LabView> {
  const { row, author, canEdit, hidden } = await readableItem(
    db,
    'labs',
    { username: address.username, id: address.labId },
    viewer,
    LAB.notFound,
  )
  return { ...(await labDraftOf(db, row)), ...published(row), author, canEdit, hidden }
}

/** The lab as its editor opens it; only for its owner or an admin. */
export async function readLabForEditor(
  db: Kysely<DB>,
  actor: Actor | undefined,
  labId: string,
): Promise<LabDraft> {
  const lab = await labDraftOf(db, await editableItem(db, LAB, actor, labId))
  return withPendingRevision(db, 'lab', labId, labFields, lab)
}

async function labDraftOf(
  db: Kysely<DB>,
  lab: Selectable<DB['labs']>,
): Promise<Omit<LabDraft, 'pendingSince'>> {
  const tags = await tagsOfItems(db, 'lab_tags', [lab.id])
  return {
    id: lab.id,
    title: lab.title,
    description: lab.description,
    tags: tags.get(lab.id) ?? [],
    repositoryUrl: lab.repository_url,
    demoUrl: lab.demo_url,
    screenshotKeys: await screenshotKeysOf(db, lab.id),
    status: lab.status,
    revision: lab.revision,
  }
}

function published(item: {
  status: PublicationStatus
  published_at: number | null
  updated_at: number
}) {
  return {
    publishedAt: item.status === 'published' ? item.published_at : null,
    updatedAt: item.updated_at,
  }
}

/** A lab story as `viewer` may see it; someone else's draft is "not found". */
export async function readLabStoryForViewer(
  db: Kysely<DB>,
  address: { username: string; storyId: string },
  viewer: Actor | undefined,
): Promise<LabStoryView> {
  const { row, author, canEdit, hidden } = await readableItem(
    db,
    'lab_stories',
    { username: address.username, id: address.storyId },
    viewer,
    LAB_STORY.notFound,
  )
  const lab =
    row.lab_id === null
      ? undefined
      : await db
          .selectFrom('labs')
          .select(['id', 'title', 'status', 'owner_id', 'hidden_at'])
          .where('id', '=', row.lab_id)
          .executeTakeFirst()
  const { labId: _, ...draft } = await storyDraftOf(db, row)
  return {
    ...draft,
    lab:
      lab &&
      ((lab.status === 'published' && lab.hidden_at === null) || mayEdit(viewer, lab.owner_id))
        ? { id: lab.id, title: lab.title }
        : null,
    ...published(row),
    author,
    canEdit,
    hidden,
  }
}

/** The story as its editor opens it; only for its owner or an admin. */
export async function readLabStoryForEditor(
  db: Kysely<DB>,
  actor: Actor | undefined,
  storyId: string,
): Promise<LabStoryDraft> {
  const story = await storyDraftOf(db, await editableItem(db, LAB_STORY, actor, storyId))
  return withPendingRevision(db, 'lab_story', storyId, labStoryFields, story)
}

async function storyDraftOf(
  db: Kysely<DB>,
  story: Selectable<DB['lab_stories']>,
): Promise<Omit<LabStoryDraft, 'pendingSince'>> {
  const tags = await tagsOfItems(db, 'lab_story_tags', [story.id])
  return {
    id: story.id,
    title: story.title,
    body: story.body,
    tags: tags.get(story.id) ?? [],
    labId: story.lab_id,
    coverKey: story.cover_key,
    status: story.status,
    revision: story.revision,
  }
}

/**
 * The labs a story may tell of (the editor's choice), newest change first: the story owner's
 * when editing `storyId`, else the actor's own (a new story).
 */
export async function labChoicesFor(
  db: Kysely<DB>,
  actor: Actor | undefined,
  storyId?: string,
): Promise<{ id: string; title: string }[]> {
  if (!actor) throw ContentError.signInRequired()
  const ownerId = storyId
    ? (await editableItem(db, LAB_STORY, actor, storyId)).owner_id
    : actor.userId
  return db
    .selectFrom('labs')
    .select(['id', 'title'])
    .where('owner_id', '=', ownerId)
    .orderBy('updated_at', 'desc')
    .limit(100)
    .execute()
}
