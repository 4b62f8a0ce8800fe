import { CognitoError } from '#server/identity/cognito-error.ts'
import { signedIn, signingInUser } from '#server/identity/user-pool/auth/after-password.ts'
import { required } from '#server/identity/user-pool/auth/outcome.ts'
import { codeMismatch } from '#server/identity/user-pool/codes.ts'
import { recordFailedSignIn } from '#server/identity/user-pool/lockout.ts'
import type { MfaState } from '#server/identity/user-pool/mfa/challenge.ts'
import { spendTotpCode, totpCodeReplayed } from '#server/identity/user-pool/mfa/settings.ts'
import type { ChallengeHandler } from './types.ts'

/**
 * SOFTWARE_TOKEN_MFA: the code of the user's authenticator app. A wrong code is
 * CodeMismatchException, a replayed one ExpiredCodeException (Cognito's "already been used
 * once", so the screen can say to wait for the next code); both count toward the lockout and
 * leave the Session for another try.
 */
export const softwareTokenMfa: ChallengeHandler = {
  precheck(responses) {
    required(responses, 'SOFTWARE_TOKEN_MFA_CODE')
  },
  async respond(ctx, step) {
    const { SOFTWARE_TOKEN_MFA_CODE } = required(step.responses, 'SOFTWARE_TOKEN_MFA_CODE')
    const user = await signingInUser(ctx, step.sub)
    const secret = user.totp_enabled === 1 ? user.totp_secret : null
    const code = SOFTWARE_TOKEN_MFA_CODE as string
    const spent = await spendTotpCode(ctx, user, secret, code)
    if (spent === undefined) {
      await recordFailedSignIn(ctx, user)
      if (totpCodeReplayed(ctx, user, secret, code)) throw totpAlreadyUsed()
      throw codeMismatch()
    }
    return signedIn(ctx, user, (step.state as MfaState).deviceKey ?? null)
  },
}

export const TOTP_ALREADY_USED = 'Your software token has already been used once.'
const totpAlreadyUsed = () => new CognitoError('ExpiredCodeException', TOTP_ALREADY_USED)
