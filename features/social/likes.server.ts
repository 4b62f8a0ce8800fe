import type { Kysely } from 'kysely'
import type { z } from 'zod'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import type { LikeState } from '#features/social/social-views.ts'
import { notify, withdrawNotification } from './notifications.server.ts'
import { actingUser, type Subject, subjectSchema, visibleSubject } from './subjects.server.ts'

export type { LikeState }

/**
 * How many people like the item, and whether the viewer does. Counted from the rows (indexed
 * by subject), so the count cannot drift from the likes that exist.
 */
export async function likeState(
  db: Kysely<DB>,
  subject: Subject,
  viewer: Actor | undefined,
): Promise<LikeState> {
  const row = await db
    .selectFrom('likes')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('count'),
      eb.fn
        .count<number | string>(
          eb
            .case()
            .when('user_id', '=', viewer?.userId ?? '')
            .then(1)
            .end(),
        )
        .as('mine'),
    ])
    .where('subject_kind', '=', subject.kind)
    .where('subject_id', '=', subject.id)
    .executeTakeFirstOrThrow()
  return { count: Number(row.count), liked: Number(row.mine) > 0 }
}

/** The like state of an item the viewer may see (404 for a draft they may not). */
export async function readLikes(
  db: Kysely<DB>,
  viewer: Actor | undefined,
  input: z.input<typeof subjectSchema>,
): Promise<LikeState> {
  const subject = await visibleSubject(db, parseInput(subjectSchema, input), viewer)
  return likeState(db, subject, viewer)
}

/**
 * Likes an item. Liking again changes nothing (the row's key is user and item), and only the
 * first like notifies the owner.
 */
export async function likeSubject(
  db: Kysely<DB>,
  actor: Actor | undefined,
  input: z.input<typeof subjectSchema>,
  now = Date.now(),
): Promise<LikeState> {
  if (!actor) throw ContentError.signInRequired()
  const requested = parseInput(subjectSchema, input)
  return db.transaction().execute(async (trx) => {
    const liker = await actingUser(trx, actor)
    const subject = await visibleSubject(trx, requested, liker)
    const inserted = await trx
      .insertInto('likes')
      .values({
        user_id: actor.userId,
        subject_kind: subject.kind,
        subject_id: subject.id,
        created_at: now,
      })
      .onConflict((conflict) =>
        conflict.columns(['user_id', 'subject_kind', 'subject_id']).doNothing(),
      )
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) {
      await notify(
        trx,
        { recipientId: subject.ownerId, actorId: actor.userId, kind: 'like', subject: requested },
        now,
      )
    }
    return likeState(trx, subject, actor)
  })
}

/** Takes a like back; unliking what one does not like changes nothing. */
export async function unlikeSubject(
  db: Kysely<DB>,
  actor: Actor | undefined,
  input: z.input<typeof subjectSchema>,
): Promise<LikeState> {
  if (!actor) throw ContentError.signInRequired()
  const requested = parseInput(subjectSchema, input)
  return db.transaction().execute(async (trx) => {
    const subject = await visibleSubject(trx, requested, actor)
    const deleted = await trx
      .deleteFrom('likes')
      .where('user_id', '=', actor.userId)
      .where('subject_kind', '=', subject.kind)
      .where('subject_id', '=', subject.id)
      .executeTakeFirst()
    if (Number(deleted.numDeletedRows) === 1) {
      await withdrawNotification(trx, {
        recipientId: subject.ownerId,
        actorId: actor.userId,
        kind: 'like',
        subject: requested,
      })
    }
    return likeState(trx, subject, actor)
  })
}
