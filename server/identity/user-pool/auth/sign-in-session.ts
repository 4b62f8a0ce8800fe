import { notAuthorized } from '../../cognito-error.ts'
import { issueTokens, type TokenSession } from '../../tokens/issue.ts'
import { createRefreshToken, findRefreshToken } from '../../tokens/refresh-tokens.ts'
import { tokenSubject } from '../attributes.ts'
import type { UserPoolContext } from '../context.ts'
import { identitiesOf } from '../linked-identities.ts'
import { findUserBySub, groupsOf, type PoolUser } from '../users.ts'
import type { AuthenticationResult } from './outcome.ts'

/**
 * Starts a sign-in session: a new refresh token (and origin_jti) and the first tokens.
 * `oauth` marks a sign-in through the hosted endpoints (server/identity/oauth).
 */
export async function startSignInSession(
  ctx: UserPoolContext,
  user: PoolUser,
  clientId: string,
  oauth?: TokenSession['oauth'],
): Promise<AuthenticationResult> {
  const now = ctx.now()
  const { token, originJti } = await createRefreshToken(ctx.db, {
    sub: user.sub,
    clientId,
    authTime: now,
    ttlMs: ctx.settings.tokenTtlSeconds.refresh * 1000,
    now,
    scope: oauth?.scope,
  })
  const tokens = await tokensFor(ctx, user, {
    clientId,
    originJti,
    authTime: now,
    deviceKey: null,
    ...(oauth && { oauth }),
  })
  return { ...tokens, RefreshToken: token }
}

/** New access and id tokens for the session a refresh token belongs to. */
export async function refreshSignInSession(
  ctx: UserPoolContext,
  refreshToken: string,
  clientId: string,
): Promise<AuthenticationResult> {
  const row = await findRefreshToken(ctx.db, refreshToken)
  if (!row || row.client_id !== clientId) throw notAuthorized('Invalid Refresh Token')
  const user = await findUserBySub(ctx.db, row.sub)
  if (!user) throw notAuthorized('User does not exist.')
  if (row.revoked_at !== null || row.created_at < user.tokens_valid_after) {
    throw notAuthorized('Refresh Token has been revoked')
  }
  if (row.expires_at <= ctx.now()) throw notAuthorized('Refresh Token has expired')
  if (user.enabled !== 1) throw notAuthorized('User is disabled.')
  return tokensFor(ctx, user, {
    clientId,
    originJti: row.origin_jti,
    authTime: row.auth_time,
    deviceKey: row.device_key,
    ...(row.scope !== null && { oauth: { scope: row.scope } }),
  })
}

async function tokensFor(ctx: UserPoolContext, user: PoolUser, session: TokenSession) {
  const identities = await identitiesOf(ctx.db, user.sub)
  // Cognito puts federated users in a group of their provider, `{pool id}_{provider}`.
  const providerGroups = [...new Set(identities.map((identity) => identity.providerName))].map(
    (provider) => `${ctx.settings.userPoolId}_${provider}`,
  )
  const groups = [...providerGroups, ...(await groupsOf(ctx.db, user, ctx.settings.admins))]
  return issueTokens(
    ctx.keys,
    {
      issuer: ctx.settings.issuer,
      idTtlSeconds: ctx.settings.tokenTtlSeconds.id,
      accessTtlSeconds: ctx.settings.tokenTtlSeconds.access,
    },
    { ...tokenSubject(user, groups), identities },
    session,
    ctx.now(),
  )
}
