import { invalidParameter } from '#server/identity/cognito-error.ts'
import { signingInUser } from '#server/identity/user-pool/auth/after-password.ts'
import { required } from '#server/identity/user-pool/auth/outcome.ts'
import { type MfaState, mfaChallenge } from '#server/identity/user-pool/mfa/challenge.ts'
import { enabledMfa, MFA_TYPES, type MfaType } from '#server/identity/user-pool/mfa/settings.ts'
import type { ChallengeHandler } from './types.ts'

const isMfaType = (value: string): value is MfaType => (MFA_TYPES as string[]).includes(value)

/** SELECT_MFA_TYPE: the user has two MFA types and prefers neither; ANSWER picks one. */
export const selectMfaType: ChallengeHandler = {
  precheck(responses) {
    const { ANSWER } = required(responses, 'ANSWER')
    if (!isMfaType(ANSWER as string))
      throw invalidParameter('Invalid ANSWER: must be SMS_MFA or SOFTWARE_TOKEN_MFA')
  },
  async respond(ctx, step) {
    const { ANSWER } = required(step.responses, 'ANSWER') as { ANSWER: string }
    const user = await signingInUser(ctx, step.sub)
    if (!isMfaType(ANSWER) || !enabledMfa(user).includes(ANSWER)) {
      throw invalidParameter(`${ANSWER} is not enabled for the user.`)
    }
    return mfaChallenge(ctx, user, ANSWER, step.state as MfaState)
  },
}
