import { notAuthorized } from '#server/identity/cognito-error.ts'
import { afterPassword } from '#server/identity/user-pool/auth/after-password.ts'
import { type AuthOutcome, required } from '#server/identity/user-pool/auth/outcome.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { assertNotLocked, recordFailedSignIn } from '#server/identity/user-pool/lockout.ts'
import { decoyVerifier, passwordMatches } from '#server/identity/user-pool/passwords.ts'
import {
  assertUserExistenceErrorsPrevented,
  findUserBySignInName,
  normalizeUsername,
} from '#server/identity/user-pool/users.ts'

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
  await assertNotLocked(ctx, user, parameters?.DEVICE_KEY)
  if (!passwordMatches(ctx.poolName, user, PASSWORD)) {
    await recordFailedSignIn(ctx, user, parameters?.DEVICE_KEY)
    throw notAuthorized()
  }
  return afterPassword(ctx, user, parameters?.DEVICE_KEY)
}
