import { setTimeout as sleep } from 'node:timers/promises'
import { notAuthorized } from '#server/identity/cognito-error.ts'
import { limitKey, sourceOf } from './abuse-limits.ts'
import type { UserPoolContext } from './context.ts'
import type { PoolUser } from './users.ts'

/**
 * Brute-force protection for passwords (and MFA codes), keyed so that nobody can lock a known
 * username out from anywhere (docs/decisions/021, 047). Failures are counted per user *and
 * source* (a remembered device of the user when the request names one, else the address):
 * the limit (5 in 15 minutes by default) locks that user from that source only. They are also
 * counted per user from anywhere (100 a day by default); past that cap nothing is locked, but
 * guessing is slowed: a source the user has not signed in from lately (an address) and that is
 * not one of their remembered devices gets one wrong password per window instead of five, and
 * each wrong answer waits longer. A source that has not failed always gets its try, so the
 * owner comes in with the right password from anywhere they have not mistyped it. While a
 * source is locked, even the right password gets Cognito's "Password attempts exceeded". A
 * success clears the source's count and makes the address known; a password reset clears all.
 */
export const SOURCE_WINDOW_MS = 15 * 60 * 1000
export const USER_WINDOW_MS = 24 * 3600 * 1000
/** How long an address the user signed in from stays known to be theirs. */
export const KNOWN_SOURCE_MS = 30 * 24 * 3600 * 1000
/** Past the daily cap, each wrong password from an unknown source waits this much more... */
export const SLOW_DOWN_STEP_MS = 250
/** ...up to this. */
export const SLOW_DOWN_MAX_MS = 3000

/** Where an attempt comes from: a remembered device of the user, or the client address. */
type Source = { id: string; device: boolean }

const sourceKey = (sub: string, source: Source) => limitKey('fail-src', sub, source.id)
const userKey = (sub: string) => limitKey('fail-user', sub)
const knownKey = (sub: string, address: string) => limitKey('known-src', sub, address)

async function sourceOfAttempt(
  ctx: UserPoolContext,
  user: PoolUser,
  deviceKey: string | undefined,
): Promise<Source> {
  if (deviceKey) {
    const device = await ctx.db
      .selectFrom('identity_devices')
      .select('remembered_status')
      .where('device_key', '=', deviceKey)
      .where('sub', '=', user.sub)
      .executeTakeFirst()
    if (device?.remembered_status === 'remembered')
      return { id: `device:${deviceKey}`, device: true }
  }
  return { id: sourceOf(ctx), device: false }
}

/** A remembered device, or an address the user signed in from lately. */
async function trusted(ctx: UserPoolContext, user: PoolUser, source: Source): Promise<boolean> {
  return source.device || (await ctx.limits.limiter.count(knownKey(user.sub, source.id))) > 0
}

export async function assertNotLocked(
  ctx: UserPoolContext,
  user: PoolUser,
  deviceKey?: string,
): Promise<void> {
  const { failedSignInsPerSource, failedSignInsPerUserPerDay } = ctx.limits.settings
  const { limiter } = ctx.limits
  let locked: boolean
  try {
    const source = await sourceOfAttempt(ctx, user, deviceKey)
    const [fromSource, overall] = await Promise.all([
      limiter.count(sourceKey(user.sub, source)),
      limiter.count(userKey(user.sub)),
    ])
    locked =
      fromSource >= failedSignInsPerSource ||
      (overall >= failedSignInsPerUserPerDay &&
        fromSource > 0 &&
        !(await trusted(ctx, user, source)))
  } catch (error) {
    ctx.log.warn({ err: error }, 'abuse limiter unavailable; lockout not checked')
    return
  }
  if (locked) throw notAuthorized('Password attempts exceeded')
}

/**
 * Counts a wrong password (or code) against the user, from this source and overall; past the
 * daily cap, answers an unknown source only after a wait that grows with the failures.
 */
export async function recordFailedSignIn(
  ctx: UserPoolContext,
  user: PoolUser,
  deviceKey?: string,
): Promise<void> {
  const { failedSignInsPerSource, failedSignInsPerUserPerDay } = ctx.limits.settings
  const { limiter } = ctx.limits
  let wait = 0
  try {
    const source = await sourceOfAttempt(ctx, user, deviceKey)
    const [fromSource, overall] = await Promise.all([
      limiter.hit(sourceKey(user.sub, source), SOURCE_WINDOW_MS),
      limiter.hit(userKey(user.sub), USER_WINDOW_MS),
    ])
    if (fromSource === failedSignInsPerSource || overall === failedSignInsPerUserPerDay) {
      ctx.log.warn(
        { sub: user.sub, everywhere: overall >= failedSignInsPerUserPerDay },
        overall >= failedSignInsPerUserPerDay
          ? 'user pool sign-in slowed for unknown sources after repeated failures'
          : 'user pool sign-in locked for one source after repeated failures',
      )
    }
    const past = overall - failedSignInsPerUserPerDay
    if (past >= 0 && !(await trusted(ctx, user, source))) {
      wait = Math.min(SLOW_DOWN_MAX_MS, (past + 1) * SLOW_DOWN_STEP_MS)
    }
  } catch (error) {
    ctx.log.warn({ err: error }, 'abuse limiter unavailable; failed sign-in not counted')
  }
  if (wait > 0) await sleep(wait)
}

/** A sign-in came through: its source starts afresh, and its address is known to be the user's. */
export async function recordSuccessfulSignIn(
  ctx: UserPoolContext,
  user: PoolUser,
  deviceKey?: string,
): Promise<void> {
  const { limiter } = ctx.limits
  const address = sourceOf(ctx)
  const source = await sourceOfAttempt(ctx, user, deviceKey).catch(() => undefined)
  await Promise.all([
    limiter.reset(sourceKey(user.sub, { id: address, device: false })),
    source?.device && limiter.reset(sourceKey(user.sub, source)),
    limiter.hit(knownKey(user.sub, address), KNOWN_SOURCE_MS),
  ]).catch(() => {})
}

/** A password reset proved the mailbox: the user starts with a clean slate. */
export async function clearLockout(ctx: UserPoolContext, user: PoolUser): Promise<void> {
  await Promise.all([
    ctx.limits.limiter.reset(sourceKey(user.sub, { id: sourceOf(ctx), device: false })),
    ctx.limits.limiter.reset(userKey(user.sub)),
  ]).catch(() => {})
}
