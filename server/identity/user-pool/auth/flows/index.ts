import type { AuthOutcome } from '#server/identity/user-pool/auth/outcome.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { customAuth } from './custom-auth.ts'
import { refreshTokenAuth } from './refresh-token.ts'
import { userPasswordAuth } from './user-password.ts'
import { userSrpAuth } from './user-srp.ts'

/** The first step of a sign-in, by InitiateAuth's AuthFlow. */
export type AuthFlow = (
  ctx: UserPoolContext,
  parameters: Record<string, string> | undefined,
  clientId: string,
) => Promise<AuthOutcome>

export const AUTH_FLOWS: Record<string, AuthFlow> = {
  USER_SRP_AUTH: userSrpAuth,
  USER_PASSWORD_AUTH: userPasswordAuth,
  REFRESH_TOKEN_AUTH: refreshTokenAuth,
  REFRESH_TOKEN: refreshTokenAuth,
  CUSTOM_AUTH: customAuth,
}
