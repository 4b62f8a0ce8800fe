import { CognitoError, notAuthorized } from '#server/identity/cognito-error.ts'
import { TokenRejected } from '#server/identity/tokens/verifier.ts'
import type { UserPoolContext } from './context.ts'
import { findUserBySub, type PoolUser } from './users.ts'

/**
 * The user an AccessToken belongs to, after the complete check (signature, expiry, client,
 * revocation by RevokeToken or GlobalSignOut). Throws Cognito's error otherwise.
 */
export async function userOfAccessToken(
  ctx: UserPoolContext,
  accessToken: string,
): Promise<{ user: PoolUser; claims: Record<string, unknown> }> {
  let claims: Record<string, unknown>
  try {
    claims = await ctx.verifyToken(accessToken, 'access')
  } catch (error) {
    if (!(error instanceof TokenRejected)) throw error
    if (error.message === 'User does not exist.') {
      throw new CognitoError('UserNotFoundException', error.message)
    }
    throw notAuthorized(error.message)
  }
  const user = await findUserBySub(ctx.db, String(claims.sub))
  if (!user) throw new CognitoError('UserNotFoundException', 'User does not exist.')
  return { user, claims }
}
