import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import { actingUser } from '#features/social/subjects.server.ts'
import type { BlockState } from './profile-views.ts'
import { userIdOf } from './profiles.server.ts'

/** Whether `blockerId` blocks `blockedId`. */
export async function blocks(db: Kysely<DB>, blockerId: string, blockedId: string) {
  const row = await db
    .selectFrom('user_blocks')
    .select('blocker_id')
    .where('blocker_id', '=', blockerId)
    .where('blocked_id', '=', blockedId)
    .executeTakeFirst()
  return row !== undefined
}

/** Whether either of the two blocks the other: follows and comments between them are refused. */
export async function blockedEitherWay(db: Kysely<DB>, a: string, b: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_blocks')
    .select('blocker_id')
    .where((eb) =>
      eb.or([
        eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]),
        eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)]),
      ]),
    )
    .executeTakeFirst()
  return row !== undefined
}

export async function readBlockState(
  db: Kysely<DB>,
  actor: Actor | undefined,
  username: string,
): Promise<BlockState> {
  const userId = await userIdOf(db, username)
  return { blocked: actor !== undefined && (await blocks(db, actor.userId, userId)) }
}

/**
 * `actor` blocks `username`: their messages stop reaching the actor and the room with them is
 * hidden from the actor; follows between them end and cannot start again; they cannot comment
 * on the actor's items. The blocked user is not told (nothing is sent or shown to them).
 */
export async function blockUser(
  db: Kysely<DB>,
  actor: Actor | undefined,
  username: string,
  now = Date.now(),
): Promise<BlockState> {
  const blocker = await actingUser(db, actor)
  const blockedId = await userIdOf(db, username)
  if (blockedId === blocker.userId) {
    throw new ContentError('VALIDATION_FAILED', '自分自身はブロックできません', {
      username: ['自分自身はブロックできません'],
    })
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('user_blocks')
      .values({ blocker_id: blocker.userId, blocked_id: blockedId, created_at: now })
      .onConflict((conflict) => conflict.columns(['blocker_id', 'blocked_id']).doNothing())
      .execute()
    await trx
      .deleteFrom('follows')
      .where((eb) =>
        eb.or([
          eb.and([eb('follower_id', '=', blocker.userId), eb('followee_id', '=', blockedId)]),
          eb.and([eb('follower_id', '=', blockedId), eb('followee_id', '=', blocker.userId)]),
        ]),
      )
      .execute()
  })
  return { blocked: true }
}

export async function unblockUser(
  db: Kysely<DB>,
  actor: Actor | undefined,
  username: string,
): Promise<BlockState> {
  const blocker = await actingUser(db, actor)
  const blockedId = await userIdOf(db, username)
  await db
    .deleteFrom('user_blocks')
    .where('blocker_id', '=', blocker.userId)
    .where('blocked_id', '=', blockedId)
    .execute()
  return { blocked: false }
}
