import { notAuthorized } from '#server/identity/cognito-error.ts'
import { issueTokens, type TokenSession } from '#server/identity/tokens/issue.ts'
import { createRefreshToken, findRefreshToken } from '#server/identity/tokens/refresh-tokens.ts'
import { tokenSubject } from '#server/identity/user-pool/attributes.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { createDevice, recordDeviceSignIn } from '#server/identity/user-pool/devices/store.ts'
import { identitiesOf } from '#server/identity/user-pool/linked-identities.ts'
import { findUserBySub, groupsOf, type PoolUser } from '#server/identity/user-pool/users.ts'
import type { AuthenticationResult } from './outcome.ts'

/**
 * Starts a sign-in session: a new refresh token (and origin_jti) and the first tokens, bound
 * to the device the sign-in proved it came from, or else to a new device the client is told
 * about (NewDeviceMetadata) and may confirm. A sign-in through the hosted endpoints
 * (`oauth`, server/identity/oauth) tracks no device, as Cognito's hosted UI does not.
 */
export async function startSignInSession(
  ctx: UserPoolContext,
  user: PoolUser,
  session: {
    clientId: string
    ip: string | null
    deviceKey: string | null
    oauth?: TokenSession['oauth']
  },
): Promise<AuthenticationResult> {
  const now = ctx.now()
  const { clientId, ip, oauth } = session
  let deviceKey = session.deviceKey
  let newDevice: AuthenticationResult['NewDeviceMetadata']
  if (oauth) {
    deviceKey = null
  } else if (deviceKey === null) {
    newDevice = await createDevice(ctx, user.sub, ip)
    deviceKey = newDevice.DeviceKey
  } else {
    await recordDeviceSignIn(ctx, deviceKey, ip)
  }
  const { token, originJti } = await createRefreshToken(ctx.db, {
    sub: user.sub,
    clientId,
    deviceKey,
    authTime: now,
    ttlMs: ctx.settings.tokenTtlSeconds.refresh * 1000,
    now,
    scope: oauth?.scope,
  })
  const tokens = await tokensFor(ctx, user, {
    clientId,
    originJti,
    authTime: now,
    deviceKey,
    ...(oauth && { oauth }),
  })
  return { ...tokens, RefreshToken: token, ...(newDevice && { NewDeviceMetadata: newDevice }) }
}

/**
 * New access and id tokens for the session a refresh token belongs to. A refresh token
 * belongs to one device: a DEVICE_KEY naming another is refused (one left out is accepted,
 * as a client whose ConfirmDevice failed has none to send).
 */
export async function refreshSignInSession(
  ctx: UserPoolContext,
  refreshToken: string,
  clientId: string,
  deviceKey: string | undefined,
): Promise<AuthenticationResult> {
  const row = await findRefreshToken(ctx.db, refreshToken)
  if (!row || row.client_id !== clientId) throw notAuthorized('Invalid Refresh Token')
  if (deviceKey !== undefined && deviceKey !== row.device_key) {
    throw notAuthorized('Invalid Refresh Token')
  }
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
