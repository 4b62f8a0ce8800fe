import { invalidParameter } from '#server/identity/cognito-error.ts'
import { signedIn, signingInUser } from '#server/identity/user-pool/auth/after-password.ts'
import type { MfaSetupState } from '#server/identity/user-pool/mfa/challenge.ts'
import type { ChallengeHandler } from './types.ts'

/**
 * MFA_SETUP: the pool requires MFA and the user had none. The client associates an
 * authenticator app (AssociateSoftwareToken with the Session), proves it with a code
 * (VerifySoftwareToken, which answers a new Session) and then answers this challenge with
 * that Session to finish signing in.
 */
export const mfaSetup: ChallengeHandler = {
  async respond(ctx, step) {
    const state = step.state as MfaSetupState
    const user = await signingInUser(ctx, step.sub)
    if (state.phase !== 'verified') {
      throw invalidParameter(
        'Set up software token MFA (AssociateSoftwareToken, VerifySoftwareToken) first.',
      )
    }
    return signedIn(ctx, user, state.deviceKey ?? null)
  },
}
