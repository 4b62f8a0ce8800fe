import { CODE_WINDOW_MS } from './codes.ts'
import type { UserPoolContext } from './context.ts'

/**
 * Deletes what can no longer be used: expired challenge sessions, codes that are past their
 * expiry and no longer count for the sending limit, and refresh tokens past their expiry (kept
 * as long as an access or id token of their session could still be presented).
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
}
