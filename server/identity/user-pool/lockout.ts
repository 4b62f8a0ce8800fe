import { sql } from 'kysely'
import { notAuthorized } from '../cognito-error.ts'
import type { UserPoolContext } from './context.ts'
import type { PoolUser } from './users.ts'

/**
 * Brute-force protection for passwords: failures within a window are counted; the fifth
 * locks the account for 15 minutes, during which even the right password is refused with
 * Cognito's "Password attempts exceeded". A success clears the count.
 */
export const MAX_FAILED_SIGN_INS = 5
export const LOCKOUT_MS = 15 * 60 * 1000

export function assertNotLocked(user: PoolUser, now: number): void {
  if (user.locked_until !== null && user.locked_until > now) {
    throw notAuthorized('Password attempts exceeded')
  }
}

/** Counts a wrong password; locks the account when it was one too many. */
export async function recordFailedSignIn(ctx: UserPoolContext, user: PoolUser): Promise<void> {
  const now = ctx.now()
  const forgetBefore = now - LOCKOUT_MS
  const row = await ctx.db
    .updateTable('identity_users')
    .set({
      failed_sign_ins: sql<number>`case when last_failed_sign_in_at is null or last_failed_sign_in_at < ${forgetBefore} then 1 else failed_sign_ins + 1 end`,
      last_failed_sign_in_at: now,
    })
    .where('sub', '=', user.sub)
    .returning('failed_sign_ins')
    .executeTakeFirst()
  if (row && row.failed_sign_ins >= MAX_FAILED_SIGN_INS) {
    await ctx.db
      .updateTable('identity_users')
      .set({ locked_until: now + LOCKOUT_MS, failed_sign_ins: 0, last_failed_sign_in_at: null })
      .where('sub', '=', user.sub)
      .execute()
    ctx.log.warn({ sub: user.sub }, 'user pool account locked after repeated failed sign-ins')
  }
}

export async function recordSuccessfulSignIn(ctx: UserPoolContext, user: PoolUser): Promise<void> {
  if (user.failed_sign_ins === 0 && user.locked_until === null) return
  await ctx.db
    .updateTable('identity_users')
    .set({ failed_sign_ins: 0, last_failed_sign_in_at: null, locked_until: null })
    .where('sub', '=', user.sub)
    .execute()
}
