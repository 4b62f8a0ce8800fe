import { createHash } from 'node:crypto'
import type { AbuseLimitSettings } from '#server/config.ts'
import { CognitoError } from '#server/identity/cognito-error.ts'
import type { RateLimiter } from '#server/rate-limiter.ts'
import type { UserPoolContext } from './context.ts'

/**
 * The user pool's abuse limits (docs/decisions/021): sign-ups per client address, mails per
 * recipient and per client address, and failed sign-ins per user and source. Counted by a
 * RateLimiter (in memory, or in Redis to share them between instances).
 */
export type AbuseLimits = { settings: AbuseLimitSettings; limiter: RateLimiter }

const HOUR_MS = 3600 * 1000

/** Cognito's throttling answer, for too many requests from one place. */
export const tooManyRequests = () =>
  new CognitoError('TooManyRequestsException', 'Too many requests')
/** Cognito's answer when too many codes were asked for one recipient. */
export const limitExceeded = () =>
  new CognitoError('LimitExceededException', 'Attempt limit exceeded, please try after some time.')

/** Where a request came from; in-process calls (tools, seeds) are `local`. */
export const sourceOf = (ctx: UserPoolContext) => ctx.sourceIp ?? 'local'

// Counters are keyed by hashes, so Redis holds no addresses or emails.
export const limitKey = (kind: string, ...parts: string[]) =>
  `${kind}:${createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 32)}`

/**
 * Counts one event and says whether it went past the limit. A limiter that fails (Redis away)
 * lets the request through with a warning: sign-in and sign-up stay up, the limits do not.
 */
export async function overLimit(
  ctx: UserPoolContext,
  key: string,
  limit: number,
  windowMs: number,
): Promise<boolean> {
  try {
    return (await ctx.limits.limiter.hit(key, windowMs)) > limit
  } catch (error) {
    ctx.log.warn({ err: error }, 'abuse limiter unavailable; request not limited')
    return false
  }
}

/** A sign-up from this client address: refused past the hourly limit. */
export async function limitSignUp(ctx: UserPoolContext): Promise<void> {
  const { signUpsPerIpPerHour } = ctx.limits.settings
  if (await overLimit(ctx, limitKey('signup-ip', sourceOf(ctx)), signUpsPerIpPerHour, HOUR_MS)) {
    throw tooManyRequests()
  }
}

/**
 * A mail about to go to `address` (or a simulated one, for a name with no account, counted the
 * same so the limits tell nothing about who exists): refused past the recipient's or the client
 * address's hourly limit.
 */
export async function limitMail(ctx: UserPoolContext, address: string): Promise<void> {
  const { mailsPerAddressPerHour, mailsPerIpPerHour } = ctx.limits.settings
  const [byAddress, bySource] = await Promise.all([
    overLimit(ctx, limitKey('mail-to', address.toLowerCase()), mailsPerAddressPerHour, HOUR_MS),
    overLimit(ctx, limitKey('mail-ip', sourceOf(ctx)), mailsPerIpPerHour, HOUR_MS),
  ])
  if (bySource) throw tooManyRequests()
  if (byAddress) throw limitExceeded()
}
