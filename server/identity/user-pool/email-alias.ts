import { CognitoError } from '#server/identity/cognito-error.ts'
import type { UserPoolContext } from './context.ts'
import { findUserByVerifiedEmail, type PoolUser, updateUser } from './users.ts'

/**
 * A verified email is a sign-in alias, so at most one account may have it verified. Before
 * verifying the user's email: refuse if another account holds it (AliasExistsException),
 * unless `force`, in which case the returned function takes it from the other account.
 */
export async function claimEmail(
  ctx: UserPoolContext,
  user: PoolUser,
  force: boolean,
): Promise<() => Promise<void>> {
  const holder = user.email ? await findUserByVerifiedEmail(ctx.db, user.email) : undefined
  if (!holder || holder.sub === user.sub) return async () => {}
  if (!force) {
    throw new CognitoError('AliasExistsException', 'An account with the email already exists.')
  }
  return () => updateUser(ctx.db, holder.sub, { email_verified: 0 }, ctx.now())
}
