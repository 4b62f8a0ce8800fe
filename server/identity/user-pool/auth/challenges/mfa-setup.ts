import { invalidParameter } from '../../../cognito-error.ts'
import type { MfaSetupState } from '../../mfa/challenge.ts'
import { signedIn, signingInUser } from '../after-password.ts'
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
