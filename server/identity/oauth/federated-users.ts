import { randomUUID } from 'node:crypto'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { findLinkedSub, linkIdentity } from '#server/identity/user-pool/linked-identities.ts'
import {
  findUserBySub,
  findUserByUsername,
  findUserByVerifiedEmail,
  insertUser,
  normalizeEmail,
  normalizeUsername,
  type PoolUser,
} from '#server/identity/user-pool/users.ts'
import type { GoogleIdentity } from './google.ts'

export const GOOGLE = 'Google'

/**
 * The account a Google sign-in belongs to: the one already linked to this Google subject,
 * or else the one whose verified email Google vouches for (which is linked now). Undefined:
 * a first sign-in, which needs a username.
 */
export async function accountOfGoogleIdentity(
  ctx: UserPoolContext,
  identity: GoogleIdentity,
): Promise<PoolUser | undefined> {
  const linked = await findLinkedSub(ctx.db, GOOGLE, identity.sub)
  if (linked) return findUserBySub(ctx.db, linked)
  if (!identity.email || !identity.emailVerified) return undefined
  const owner = await findUserByVerifiedEmail(ctx.db, identity.email)
  if (!owner) return undefined
  await linkIdentity(ctx.db, {
    providerName: GOOGLE,
    providerUserId: identity.sub,
    sub: owner.sub,
    now: ctx.now(),
  })
  ctx.log.info({ sub: owner.sub }, 'linked a Google identity by its verified email')
  return owner
}

/**
 * Registers a first-time Google user under the username they chose, with the same rules as
 * SignUp. The account has no password (status EXTERNAL_PROVIDER): password sign-in fails
 * for it, and only the emailed code of ForgotPassword can give it one.
 */
export async function createFederatedUser(
  ctx: UserPoolContext,
  identity: GoogleIdentity,
  chosen: string,
): Promise<{ user: PoolUser } | { refusal: string }> {
  const username = chosen.trim()
  const refusal = await ctx.events.usernameRefusal(username)
  if (refusal) return { refusal }
  if (await findUserByUsername(ctx.db, username)) {
    return { refusal: 'このユーザー名はすでに使われています' }
  }
  // The email may have been verified by another account since Google answered.
  const existing = await accountOfGoogleIdentity(ctx, identity)
  if (existing) return { user: existing }
  const now = ctx.now()
  const sub = randomUUID()
  const name = normalizeUsername(username)
  try {
    await insertUser(ctx.db, {
      sub,
      username: name,
      email: identity.email ? normalizeEmail(identity.email) : null,
      email_verified: identity.email && identity.emailVerified ? 1 : 0,
      status: 'EXTERNAL_PROVIDER',
      password_salt: null,
      password_verifier: null,
      attributes: JSON.stringify(identity.name ? { name: identity.name } : {}),
      totp_secret: null,
      preferred_mfa: null,
      locked_until: null,
      phone_number: null,
      created_at: now,
      updated_at: now,
    })
  } catch (error) {
    // The same name taken at the same moment: the unique index lets one through.
    if (await findUserByUsername(ctx.db, name)) {
      return { refusal: 'このユーザー名はすでに使われています' }
    }
    throw error
  }
  await linkIdentity(ctx.db, { providerName: GOOGLE, providerUserId: identity.sub, sub, now })
  await ctx.events.accountConfirmed({
    sub,
    username: name,
    email: identity.email && identity.emailVerified ? normalizeEmail(identity.email) : null,
  })
  const user = await findUserBySub(ctx.db, sub)
  if (!user) throw new Error('the new user was not stored')
  return { user }
}
