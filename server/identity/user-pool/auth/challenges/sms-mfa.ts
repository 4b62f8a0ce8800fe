import { CognitoError } from '#server/identity/cognito-error.ts'
import { signedIn, signingInUser } from '#server/identity/user-pool/auth/after-password.ts'
import { required } from '#server/identity/user-pool/auth/outcome.ts'
import { spendCode } from '#server/identity/user-pool/codes.ts'
import { recordFailedSignIn } from '#server/identity/user-pool/lockout.ts'
import type { MfaState } from '#server/identity/user-pool/mfa/challenge.ts'
import type { ChallengeHandler } from './types.ts'

/**
 * SMS_MFA: the six-digit code sent when the challenge was asked (by email for now; three
 * minutes). Wrong codes count toward the lockout and leave the Session for another try.
 */
export const smsMfa: ChallengeHandler = {
  precheck(responses) {
    required(responses, 'SMS_MFA_CODE')
  },
  async respond(ctx, step) {
    const { SMS_MFA_CODE } = required(step.responses, 'SMS_MFA_CODE')
    const user = await signingInUser(ctx, step.sub)
    try {
      await spendCode(ctx, user, 'sms_mfa', SMS_MFA_CODE as string)
    } catch (error) {
      if (error instanceof CognitoError && error.type === 'CodeMismatchException') {
        await recordFailedSignIn(ctx, user)
      }
      throw error
    }
    return signedIn(ctx, user, (step.state as MfaState).deviceKey ?? null)
  },
}
