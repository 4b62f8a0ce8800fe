import type { Kysely } from 'kysely'
import { newContentId } from '#db/ids.ts'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import type { FollowCard, FollowState } from '#features/follows/follow-views.ts'
import { afterCursor } from '#features/pagination.server.ts'
import { type Page, type PageQuery, pageFrom } from '#features/pagination.ts'
import { notifyFollow, withdrawNotification } from '#features/social/notifications.server.ts'
import { blockedEitherWay } from '#features/users/blocks.server.ts'
import { userIdOf } from '#features/users/profiles.server.ts'

export type { FollowCard, FollowState }

/** The people following `userId` and the people it follows, counted from the rows. */
export async function followCounts(
  db: Kysely<DB>,
  userId: string,
): Promise<{ followers: number; followees: number }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('follows')
        .select(eb.fn.countAll<string | number>().as('n'))
        .where('followee_id', '=', userId)
        .as('followers'),
      eb
        .selectFrom('follows')
        .select(eb.fn.countAll<string | number>().as('n'))
        .where('follower_id', '=', userId)
        .as('followees'),
    ])
    .executeTakeFirstOrThrow()
  return { followers: Number(row.followers), followees: Number(row.followees) }
}

/** The profile's counts, and whether `actor` follows it (false for guests). */
export async function followState(
  db: Kysely<DB>,
  actor: Actor | undefined,
  username: string,
): Promise<FollowState> {
  const userId = await userIdOf(db, username)
  const following =
    actor !== undefined &&
    (await db
      .selectFrom('follows')
      .select('id')
      .where('follower_id', '=', actor.userId)
      .where('followee_id', '=', userId)
      .executeTakeFirst()) !== undefined
  return { following, ...(await followCounts(db, userId)) }
}

/**
 * `actor` starts following `username`. Following oneself is a field error, following twice a
 * conflict; the pair's unique constraint decides between two tabs racing.
 */
export async function follow(
  db: Kysely<DB>,
  actor: Actor | undefined,
  username: string,
  now = Date.now(),
): Promise<FollowState> {
  if (!actor) throw ContentError.signInRequired()
  const followeeId = await userIdOf(db, username)
  if (followeeId === actor.userId) {
    throw new ContentError('VALIDATION_FAILED', '自分自身はフォローできません', {
      username: ['自分自身はフォローできません'],
    })
  }
  if (await blockedEitherWay(db, actor.userId, followeeId)) {
    throw new ContentError('FORBIDDEN', 'このユーザーはフォローできません')
  }
  await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('follows')
      .values({
        id: newContentId(),
        follower_id: actor.userId,
        followee_id: followeeId,
        created_at: now,
      })
      .onConflict((conflict) => conflict.columns(['follower_id', 'followee_id']).doNothing())
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      throw new ContentError('CONFLICT', 'すでにフォローしています')
    }
    await notifyFollow(trx, { followerId: actor.userId, followeeId }, now)
  })
  return { following: true, ...(await followCounts(db, followeeId)) }
}

/** `actor` stops following `username`; not following is a conflict, so counts never go wrong. */
export async function unfollow(
  db: Kysely<DB>,
  actor: Actor | undefined,
  username: string,
): Promise<FollowState> {
  if (!actor) throw ContentError.signInRequired()
  const followeeId = await userIdOf(db, username)
  await db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('follows')
      .where('follower_id', '=', actor.userId)
      .where('followee_id', '=', followeeId)
      .executeTakeFirst()
    if (Number(deleted.numDeletedRows) === 0) {
      throw new ContentError('CONFLICT', 'このユーザーはフォローしていません')
    }
    // An unread "followed you" goes with the follow; a read one stays in the history.
    await withdrawNotification(trx, {
      recipientId: followeeId,
      actorId: actor.userId,
      kind: 'follow',
    })
  })
  return { following: false, ...(await followCounts(db, followeeId)) }
}

/**
 * `/{user}/followers` (`direction` followers) or `/{user}/following`: people, newest follow
 * first, a page at a time.
 */
export async function listFollows(
  db: Kysely<DB>,
  username: string,
  direction: 'followers' | 'following',
  { cursor, limit }: PageQuery,
): Promise<Page<FollowCard>> {
  const userId = await userIdOf(db, username)
  // Followers are the rows pointing at the user; the other side of each row is the person shown.
  const [own, other] =
    direction === 'followers'
      ? (['followee_id', 'follower_id'] as const)
      : (['follower_id', 'followee_id'] as const)
  let query = db
    .selectFrom('follows')
    .innerJoin('users', 'users.id', `follows.${other}`)
    .select([
      'follows.id as follow_id',
      'follows.created_at',
      'users.username',
      'users.display_name',
      'users.bio',
      'users.avatar_key',
    ])
    .where(`follows.${own}`, '=', userId)
  if (cursor) query = query.where(afterCursor(cursor, 'follows.created_at', 'follows.id'))
  const rows = await query
    .orderBy('follows.created_at', 'desc')
    .orderBy('follows.id', 'desc')
    .limit(limit + 1)
    .execute()
  const cards = rows.map(
    (row): FollowCard => ({
      username: row.username,
      displayName: row.display_name,
      bio: row.bio,
      avatarKey: row.avatar_key,
      followedAt: Number(row.created_at),
      followId: row.follow_id,
    }),
  )
  return pageFrom(cards, limit, (card) => ({ at: card.followedAt, id: card.followId }))
}
