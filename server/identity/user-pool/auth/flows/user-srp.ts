import { randomBytes } from 'node:crypto'
import { invalidParameter, notAuthorized } from '#server/identity/cognito-error.ts'
import { isValidClientEphemeral, serverEphemeral, serverSessionKey } from '#server/identity/srp.ts'
import { type ChallengeStep, required } from '#server/identity/user-pool/auth/outcome.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { assertNotLocked } from '#server/identity/user-pool/lockout.ts'
import { decoyVerifier } from '#server/identity/user-pool/passwords.ts'
import {
  assertUserExistenceErrorsPrevented,
  findUserBySignInName,
  normalizeUsername,
} from '#server/identity/user-pool/users.ts'

/** What PASSWORD_VERIFIER needs: the derived key never leaves the server. */
export type PasswordVerifierState = { username: string; keyHex: string; secretBlock: string }

/**
 * USER_SRP_AUTH: the client sends A, the server answers B, the salt and a secret block, and
 * the client proves the password in PASSWORD_VERIFIER. A name that matches no account gets a
 * stand-in salt and B, so the answer does not tell whether the account exists.
 */
export async function userSrpAuth(
  ctx: UserPoolContext,
  parameters: Record<string, string> | undefined,
): Promise<ChallengeStep> {
  const { USERNAME, SRP_A } = required(parameters, 'USERNAME', 'SRP_A') as {
    USERNAME: string
    SRP_A: string
  }
  if (!isValidClientEphemeral(SRP_A)) throw invalidParameter('Invalid SRP_A value.')
  const user = await findUserBySignInName(ctx.db, USERNAME)
  if (!user) assertUserExistenceErrorsPrevented(ctx)
  if (user) await assertNotLocked(ctx, user, parameters?.DEVICE_KEY)
  const username = user?.username ?? normalizeUsername(USERNAME)
  const known = user?.password_salt && user.password_verifier ? user : undefined
  const { saltHex, verifierHex } = known
    ? { saltHex: known.password_salt as string, verifierHex: known.password_verifier as string }
    : decoyVerifier(ctx.keys.secret, ctx.poolName, username)
  const { bHex, BHex } = serverEphemeral(verifierHex)
  const key = serverSessionKey({ AHex: SRP_A, BHex, bHex, verifierHex })
  if (!key) throw notAuthorized()
  const secretBlock = randomBytes(64).toString('base64')
  const state: PasswordVerifierState = { username, keyHex: key.toString('hex'), secretBlock }
  return {
    kind: 'challenge',
    name: 'PASSWORD_VERIFIER',
    parameters: {
      SALT: saltHex,
      SECRET_BLOCK: secretBlock,
      SRP_B: BHex,
      USERNAME: username,
      USER_ID_FOR_SRP: username,
    },
    sub: known?.sub ?? null,
    state,
  }
}
