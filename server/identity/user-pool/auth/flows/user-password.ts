import { notAuthorized } from '../../../cognito-error.ts'
import type { UserPoolContext } from '../../context.ts'
import { assertNotLocked, recordFailedSignIn } from '../../lockout.ts'
import { decoyVerifier, passwordMatches } from '../../passwords.ts'
import {
  assertUserExistenceErrorsPrevented,
  findUserBySignInName,
  normalizeUsername,
} from '../../users.ts'
import { afterPassword } from '../after-password.ts'
import { type AuthOutcome, required } from '../outcome.ts'

/** USER_PASSWORD_AUTH: the password itself, checked against the SRP verifier. */
export async function userPasswordAuth(
  ctx: UserPoolContext,
  parameters: Record<string, string> | undefined,
): Promise<AuthOutcome> {
  const { USERNAME, PASSWORD } = required(parameters, 'USERNAME', 'PASSWORD') as {
    USERNAME: string
    PASSWORD: string
  }
  const user = await findUserBySignInName(ctx.db, USERNAME)
  if (!user) assertUserExistenceErrorsPrevented(ctx)
  if (!user?.password_verifier) {
    // Spend the same work as for a real account before refusing.
    const username = normalizeUsername(USERNAME)
    const decoy = decoyVerifier(ctx.keys.secret, ctx.poolName, username)
    passwordMatches(
      ctx.poolName,
      { username, password_salt: decoy.saltHex, password_verifier: decoy.verifierHex },
      PASSWORD,
    )
    throw notAuthorized()
  }
  await assertNotLocked(ctx, user)
  if (!passwordMatches(ctx.poolName, user, PASSWORD)) {
    await recordFailedSignIn(ctx, user)
    throw notAuthorized()
  }
  return afterPassword(ctx, user, parameters?.DEVICE_KEY)
}
