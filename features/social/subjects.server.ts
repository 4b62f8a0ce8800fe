import type { Kysely } from 'kysely'
import type { ContentKind, DB } from '#db/schema.ts'
import { type Actor, mayEdit } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import { CONTENT_KINDS, contentPath } from '#features/content-kinds.ts'
import type { PublishableTable } from '#features/editable-item.server.ts'

/** What can be liked and commented on: an item of any content kind. */
export type Subject = { kind: ContentKind; id: string }

export { subjectKindSchema, subjectSchema } from './subject.ts'

/** An item the viewer may see, with who owns it (for notifications and moderation). */
export type VisibleSubject = Subject & { ownerId: string; title: string; path: string }

/**
 * The item as `viewer` may see it: published and not hidden, or their own (or any, for an admin). A missing
 * item and someone else's draft are both "not found", so likes and comments never reveal a draft.
 */
export async function visibleSubject(
  db: Kysely<DB>,
  subject: Subject,
  viewer: Actor | undefined,
): Promise<VisibleSubject> {
  const item = await db
    .selectFrom(CONTENT_KINDS[subject.kind].table as PublishableTable as 'studies')
    .innerJoin('users', 'users.id', 'owner_id')
    .select(['owner_id', 'status', 'hidden_at', 'title', 'users.username'])
    .where(`${CONTENT_KINDS[subject.kind].table as 'studies'}.id`, '=', subject.id)
    .executeTakeFirst()
  // A hidden item (decision 039) is, like a draft, only its owner's (and admins').
  const shown = item?.status === 'published' && item.hidden_at === null
  if (!item || (!shown && !mayEdit(viewer, item.owner_id))) {
    throw ContentError.notFound(`${CONTENT_KINDS[subject.kind].label}が見つかりません`)
  }
  return {
    ...subject,
    ownerId: item.owner_id,
    title: item.title,
    path: contentPath(subject.kind, item.username, subject.id),
  }
}

/**
 * The actor, once their profile exists: a session can outlive its deleted account for a
 * while, and its likes and comments would have no author. Such a session signs in again.
 */
export async function actingUser(db: Kysely<DB>, actor: Actor | undefined): Promise<Actor> {
  if (!actor) throw ContentError.signInRequired()
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', actor.userId)
    .executeTakeFirst()
  if (!user) throw ContentError.signInRequired()
  return actor
}
