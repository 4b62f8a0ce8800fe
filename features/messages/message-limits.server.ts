import { createHash } from 'node:crypto'
import { ContentError } from '#features/content-error.ts'
import type { RateLimiter } from '#server/rate-limiter.ts'

/** Sends and edits one user may make per minute, counted by the shared limiter (decision 021). */
export type MessageLimits = { limiter: RateLimiter; perUserPerMinute: number }

const MINUTE_MS = 60 * 1000

// Hashed like the other limits' keys, so Redis holds no user ids.
const limitKey = (userId: string) =>
  `dm-user:${createHash('sha256').update(userId).digest('base64url').slice(0, 32)}`

/**
 * Counts one message (sent or edited) by the user and refuses it past the per-minute limit
 * (429, nothing stored). A limiter that fails (Redis away) lets the message through with a
 * warning: messaging stays up, the limit does not.
 */
export async function countMessageAttempt(
  limits: MessageLimits,
  userId: string,
  warn?: (details: object, message: string) => void,
): Promise<void> {
  let count: number
  try {
    count = await limits.limiter.hit(limitKey(userId), MINUTE_MS)
  } catch (error) {
    warn?.({ err: error }, 'message limiter unavailable; message not limited')
    return
  }
  if (count > limits.perUserPerMinute) {
    throw new ContentError(
      'RATE_LIMITED',
      '短い時間に送ったメッセージが多すぎます。1 分ほど待ってからもう一度送ってください',
    )
  }
}
