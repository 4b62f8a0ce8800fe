import { createHash, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import { CognitoError } from '#server/identity/cognito-error.ts'
import {
  refreshSignInSession,
  startSignInSession,
} from '#server/identity/user-pool/auth/sign-in-session.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { findUserBySub } from '#server/identity/user-pool/users.ts'
import { takeGrant } from './grants.ts'
import { invalidGrant, invalidRequest, OAuthError } from './oauth-error.ts'

const field = (max: number) => z.string().max(max).optional()

/** `/oauth2/token`'s form, as Amplify and other OAuth clients send it. */
export const tokenForm = z.object({
  grant_type: field(64),
  client_id: field(128),
  code: field(2048),
  redirect_uri: field(2048),
  code_verifier: field(128),
  refresh_token: field(16_384),
  scope: field(1024),
})

/** The token endpoint's answer (RFC 6749 §5.1), with an id token when `openid` was granted. */
export type TokenResponse = {
  id_token?: string
  access_token: string
  refresh_token?: string
  expires_in: number
  token_type: 'Bearer'
}

/**
 * The authorization_code grant (PKCE S256 required: the code is bound to its challenge,
 * client and redirect URI, and is gone after one attempt, right or wrong) and the
 * refresh_token grant, which Cognito's GetTokensFromRefreshToken shares.
 */
export async function exchangeAtTokenEndpoint(
  ctx: UserPoolContext,
  form: z.infer<typeof tokenForm>,
): Promise<TokenResponse> {
  if (!form.client_id) throw invalidRequest('client_id is required.')
  if (form.client_id !== ctx.settings.clientId) {
    throw new OAuthError('invalid_client', 'Client authentication failed.')
  }
  switch (form.grant_type) {
    case 'authorization_code':
      return authorizationCodeGrant(ctx, form, form.client_id)
    case 'refresh_token': {
      if (!form.refresh_token) throw invalidRequest('refresh_token is required.')
      try {
        const result = await refreshSignInSession(
          ctx,
          form.refresh_token,
          form.client_id,
          undefined,
        )
        return {
          id_token: result.IdToken,
          access_token: result.AccessToken,
          expires_in: result.ExpiresIn,
          token_type: 'Bearer',
        }
      } catch (error) {
        if (error instanceof CognitoError) throw invalidGrant(error.message)
        throw error
      }
    }
    case undefined:
      throw invalidRequest('grant_type is required.')
    default:
      throw new OAuthError('unsupported_grant_type', 'The grant type is not supported.')
  }
}

async function authorizationCodeGrant(
  ctx: UserPoolContext,
  form: z.infer<typeof tokenForm>,
  clientId: string,
): Promise<TokenResponse> {
  if (!form.code) throw invalidRequest('code is required.')
  const grant = await takeGrant(ctx, 'authorizationCode', form.code)
  const client = grant?.state.client
  if (
    !grant?.sub ||
    !client ||
    client.clientId !== clientId ||
    client.redirectUri !== form.redirect_uri ||
    !form.code_verifier ||
    !matchesChallenge(form.code_verifier, client.codeChallenge)
  ) {
    throw invalidGrant()
  }
  const user = await findUserBySub(ctx.db, grant.sub)
  if (!user) throw invalidGrant('User does not exist.')
  if (user.enabled !== 1) throw invalidGrant('User is disabled.')
  const result = await startSignInSession(ctx, user, {
    clientId,
    ip: null,
    deviceKey: null,
    oauth: { scope: client.scope, ...(client.nonce && { nonce: client.nonce }) },
  })
  return {
    ...(client.scope.split(' ').includes('openid') && { id_token: result.IdToken }),
    access_token: result.AccessToken,
    refresh_token: result.RefreshToken,
    expires_in: result.ExpiresIn,
    token_type: 'Bearer',
  }
}

/** RFC 7636 S256: BASE64URL(SHA256(verifier)) equals the challenge. */
function matchesChallenge(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'))
  const expected = Buffer.from(challenge)
  return computed.length === expected.length && timingSafeEqual(computed, expected)
}
