import { notAuthorized } from '#server/identity/cognito-error.ts'
import { afterPassword } from '#server/identity/user-pool/auth/after-password.ts'
import type { PasswordVerifierState } from '#server/identity/user-pool/auth/flows/user-srp.ts'
import { assertNotLocked, recordFailedSignIn } from '#server/identity/user-pool/lockout.ts'
import { findUserBySub } from '#server/identity/user-pool/users.ts'
import { claimResponses, passwordClaimHolds } from './password-claim.ts'
import type { ChallengeHandler } from './types.ts'

/** PASSWORD_VERIFIER: the client's proof that it derived the same SRP key. */
export const passwordVerifier: ChallengeHandler = {
  precheck(responses) {
    claimResponses(responses)
  },
  async respond(ctx, step) {
    const state = step.state as PasswordVerifierState
    const responses = claimResponses(step.responses)
    const exchange = { ...state, realm: ctx.poolName, srpUser: state.username }
    // Checked before the account is looked up, so a stand-in exchange fails the same way.
    const holds = passwordClaimHolds(ctx, responses, exchange)
    const user = step.sub ? await findUserBySub(ctx.db, step.sub) : undefined
    if (!user) throw notAuthorized()
    // A remembered device the client names is the source its failures count against.
    const deviceKey = step.responses?.DEVICE_KEY
    if (!holds) {
      await recordFailedSignIn(ctx, user, deviceKey)
      throw notAuthorized()
    }
    await assertNotLocked(ctx, user, deviceKey)
    // The clients send their stored device here (not in InitiateAuth), and retry this same
    // step without it when it is "Device does not exist.".
    return afterPassword(ctx, user, step.responses?.DEVICE_KEY)
  },
}
