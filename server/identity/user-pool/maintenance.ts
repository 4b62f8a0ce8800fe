import { CODE_WINDOW_MS } from './codes.ts'
import type { UserPoolContext } from './context.ts'

/** How long a device handed out at sign-in waits for the client's ConfirmDevice. */
export const UNCONFIRMED_DEVICE_TTL_MS = 24 * 60 * 60 * 1000

/**
 * Deletes what can no longer be used: expired challenge sessions, codes that are past their
 * expiry and no longer count for the sending limit, and refresh tokens past their expiry (kept
 * as long as an access or id token of their session could still be presented), and devices
 * handed out at sign-in that the client never confirmed.
 */
export async function sweepExpired(ctx: UserPoolContext): Promise<void> {
  const now = ctx.now()
  const { id, access } = ctx.settings.tokenTtlSeconds
  await ctx.db.deleteFrom('identity_auth_sessions').where('expires_at', '<=', now).execute()
  await ctx.db
    .deleteFrom('identity_codes')
    .where('expires_at', '<=', now)
    .where('created_at', '<=', now - CODE_WINDOW_MS)
    .execute()
  await ctx.db
    .deleteFrom('identity_refresh_tokens')
    .where('expires_at', '<=', now - Math.max(id, access) * 1000)
    .execute()
  await ctx.db
    .deleteFrom('identity_devices')
    .where('password_verifier', 'is', null)
    .where('created_at', '<=', now - UNCONFIRMED_DEVICE_TTL_MS)
    .execute()
}
