import { CognitoError, notAuthorized } from '#server/identity/cognito-error.ts'
import { afterFirstFactor, signingInUser } from '#server/identity/user-pool/auth/after-password.ts'
import type { CustomChallengeState } from '#server/identity/user-pool/auth/flows/custom-auth.ts'
import { type AuthOutcome, required } from '#server/identity/user-pool/auth/outcome.ts'
import { spendCode } from '#server/identity/user-pool/codes.ts'
import { recordFailedSignIn } from '#server/identity/user-pool/lockout.ts'
import type { ChallengeHandler } from './types.ts'

/** Answers one emailed code may receive; the last wrong one ends the sign-in. */
export const MAX_CUSTOM_ANSWERS = 3

/**
 * CUSTOM_CHALLENGE: ANSWER is the emailed code. A wrong answer is asked again under a new
 * Session (as a Lambda-defined challenge usually is) and counts toward the lockout; the third
 * ends the sign-in with NotAuthorizedException. An account with MFA still answers it after.
 */
export const customChallenge: ChallengeHandler = {
  precheck(responses) {
    required(responses, 'ANSWER')
  },
  async respond(ctx, step) {
    const { ANSWER } = required(step.responses, 'ANSWER') as { ANSWER: string }
    const state = step.state as CustomChallengeState
    if (step.sub === null) return wrongAnswer(state, null)
    const user = await signingInUser(ctx, step.sub)
    try {
      await spendCode(ctx, user, 'custom_auth', ANSWER)
    } catch (error) {
      if (!(error instanceof CognitoError) || error.type !== 'CodeMismatchException') throw error
      await recordFailedSignIn(ctx, user)
      return wrongAnswer(state, user.sub)
    }
    return afterFirstFactor(ctx, user, step.responses?.DEVICE_KEY ?? state.deviceKey)
  },
}

function wrongAnswer(state: CustomChallengeState, sub: string | null): AuthOutcome {
  const attempts = state.attempts + 1
  if (attempts >= MAX_CUSTOM_ANSWERS) throw notAuthorized('Incorrect username or password.')
  return {
    kind: 'challenge',
    name: 'CUSTOM_CHALLENGE',
    parameters: state.parameters,
    sub,
    state: { ...state, attempts },
  }
}
