import { z } from 'zod'
import { CognitoError, notAuthorized } from '#server/identity/cognito-error.ts'
import {
  findRefreshToken,
  revokeAllRefreshTokens,
  revokeRefreshToken,
} from '#server/identity/tokens/refresh-tokens.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { userOfAccessToken } from '#server/identity/user-pool/current-user.ts'
import { updateUser } from '#server/identity/user-pool/users.ts'
import { assertClient, clientId, token } from './schemas.ts'
import { operation } from './types.ts'

const revokeToken = z.object({
  Token: token,
  ClientId: clientId,
  ClientSecret: z.string().max(128).optional(),
})

const globalSignOut = z.object({ AccessToken: token })

/**
 * Ending sessions. RevokeToken ends the session of one refresh token; GlobalSignOut ends all
 * of the user's. Either way the access tokens of those sessions stop being accepted.
 */
export function signOutOperations(ctx: UserPoolContext) {
  return {
    RevokeToken: operation(revokeToken, async (input) => {
      assertClient(ctx, input.ClientId)
      const row = await findRefreshToken(ctx.db, input.Token)
      if (!row) {
        if (input.Token.split('.').length === 3) {
          throw new CognitoError('UnsupportedTokenTypeException', 'Unsupported token type')
        }
        return {}
      }
      if (row.client_id !== input.ClientId) throw notAuthorized('Invalid Refresh Token')
      await revokeRefreshToken(ctx.db, input.Token, ctx.now())
      ctx.events.sessionsEnded(row.sub)
      return {}
    }),

    GlobalSignOut: operation(globalSignOut, async (input) => {
      const { user } = await userOfAccessToken(ctx, input.AccessToken)
      await endAllSessions(ctx, user.sub)
      return {}
    }),
  }
}

/** GlobalSignOut's effect: every session of the user ends, with its access and id tokens. */
export async function endAllSessions(ctx: UserPoolContext, sub: string): Promise<void> {
  const now = ctx.now()
  await revokeAllRefreshTokens(ctx.db, sub, now)
  // Tokens carry whole seconds: anything issued before this second is refused.
  await updateUser(ctx.db, sub, { tokens_valid_after: Math.floor(now / 1000) * 1000 }, now)
  ctx.events.sessionsEnded(sub)
}
