import { notAuthorized } from '#server/identity/cognito-error.ts'
import { limitKey, sourceOf } from './abuse-limits.ts'
import type { UserPoolContext } from './context.ts'
import type { PoolUser } from './users.ts'

/**
 * Brute-force protection for passwords (and MFA codes), keyed so that nobody can lock a known
 * username out from anywhere: failures are counted per user *and source address* — the
 * limit (5 in 15 minutes by default) locks that user from that address only — and per user
 * from anywhere, with a higher cap over a day (100 by default) against guessing from many
 * addresses. While locked, even the right password gets Cognito's "Password attempts
 * exceeded". A success clears the source's count; a password reset clears both.
 * docs/decisions/021.
 */
export const SOURCE_WINDOW_MS = 15 * 60 * 1000
export const USER_WINDOW_MS = 24 * 3600 * 1000

const sourceKey = (ctx: UserPoolContext, sub: string) => limitKey('fail-src', sub, sourceOf(ctx))
const userKey = (sub: string) => limitKey('fail-user', sub)

export async function assertNotLocked(ctx: UserPoolContext, user: PoolUser): Promise<void> {
  const { failedSignInsPerSource, failedSignInsPerUserPerDay } = ctx.limits.settings
  const { limiter } = ctx.limits
  let counts: [number, number]
  try {
    counts = await Promise.all([
      limiter.count(sourceKey(ctx, user.sub)),
      limiter.count(userKey(user.sub)),
    ])
  } catch (error) {
    ctx.log.warn({ err: error }, 'abuse limiter unavailable; lockout not checked')
    return
  }
  if (counts[0] >= failedSignInsPerSource || counts[1] >= failedSignInsPerUserPerDay) {
    throw notAuthorized('Password attempts exceeded')
  }
}

/** Counts a wrong password (or code) against the user, from this source and overall. */
export async function recordFailedSignIn(ctx: UserPoolContext, user: PoolUser): Promise<void> {
  const { failedSignInsPerSource, failedSignInsPerUserPerDay } = ctx.limits.settings
  const { limiter } = ctx.limits
  try {
    const [fromSource, overall] = await Promise.all([
      limiter.hit(sourceKey(ctx, user.sub), SOURCE_WINDOW_MS),
      limiter.hit(userKey(user.sub), USER_WINDOW_MS),
    ])
    if (fromSource === failedSignInsPerSource || overall === failedSignInsPerUserPerDay) {
      ctx.log.warn(
        { sub: user.sub, everywhere: overall >= failedSignInsPerUserPerDay },
        'user pool sign-in locked after repeated failures',
      )
    }
  } catch (error) {
    ctx.log.warn({ err: error }, 'abuse limiter unavailable; failed sign-in not counted')
  }
}

export async function recordSuccessfulSignIn(ctx: UserPoolContext, user: PoolUser): Promise<void> {
  await ctx.limits.limiter.reset(sourceKey(ctx, user.sub)).catch(() => {})
}

/** A password reset proved the mailbox: the user starts with a clean slate. */
export async function clearLockout(ctx: UserPoolContext, user: PoolUser): Promise<void> {
  await Promise.all([
    ctx.limits.limiter.reset(sourceKey(ctx, user.sub)),
    ctx.limits.limiter.reset(userKey(user.sub)),
  ]).catch(() => {})
}
