import { signedIn, signingInUser } from '#server/identity/user-pool/auth/after-password.ts'
import { required } from '#server/identity/user-pool/auth/outcome.ts'
import { codeMismatch } from '#server/identity/user-pool/codes.ts'
import { recordFailedSignIn } from '#server/identity/user-pool/lockout.ts'
import type { MfaState } from '#server/identity/user-pool/mfa/challenge.ts'
import { spendTotpCode } from '#server/identity/user-pool/mfa/settings.ts'
import type { ChallengeHandler } from './types.ts'

/**
 * SOFTWARE_TOKEN_MFA: the code of the user's authenticator app. A wrong or replayed code is
 * CodeMismatchException, counts toward the lockout, and leaves the Session for another try.
 */
export const softwareTokenMfa: ChallengeHandler = {
  precheck(responses) {
    required(responses, 'SOFTWARE_TOKEN_MFA_CODE')
  },
  async respond(ctx, step) {
    const { SOFTWARE_TOKEN_MFA_CODE } = required(step.responses, 'SOFTWARE_TOKEN_MFA_CODE')
    const user = await signingInUser(ctx, step.sub)
    const spent = await spendTotpCode(
      ctx,
      user,
      user.totp_enabled === 1 ? user.totp_secret : null,
      SOFTWARE_TOKEN_MFA_CODE as string,
    )
    if (spent === undefined) {
      await recordFailedSignIn(ctx, user)
      throw codeMismatch()
    }
    return signedIn(ctx, user, (step.state as MfaState).deviceKey ?? null)
  },
}
