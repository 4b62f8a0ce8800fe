import { type AuthOutcome, required } from '#server/identity/user-pool/auth/outcome.ts'
import { refreshSignInSession } from '#server/identity/user-pool/auth/sign-in-session.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'

/**
 * REFRESH_TOKEN_AUTH (alias REFRESH_TOKEN): new access and id tokens, same refresh token;
 * DEVICE_KEY, if sent, must be the device the refresh token belongs to.
 */
export async function refreshTokenAuth(
  ctx: UserPoolContext,
  parameters: Record<string, string> | undefined,
  clientId: string,
): Promise<AuthOutcome> {
  const { REFRESH_TOKEN } = required(parameters, 'REFRESH_TOKEN') as { REFRESH_TOKEN: string }
  return {
    kind: 'tokens',
    result: await refreshSignInSession(ctx, REFRESH_TOKEN, clientId, parameters?.DEVICE_KEY),
  }
}
