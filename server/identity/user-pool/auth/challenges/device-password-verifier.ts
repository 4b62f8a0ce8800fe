import { notAuthorized } from '#server/identity/cognito-error.ts'
import { signedIn, signingInUser } from '#server/identity/user-pool/auth/after-password.ts'
import { required } from '#server/identity/user-pool/auth/outcome.ts'
import { trackedDevice } from '#server/identity/user-pool/devices/store.ts'
import { recordFailedSignIn } from '#server/identity/user-pool/lockout.ts'
import type { DevicePasswordVerifierState } from './device-srp-auth.ts'
import { claimResponses, passwordClaimHolds } from './password-claim.ts'
import type { ChallengeHandler } from './types.ts'

/**
 * DEVICE_PASSWORD_VERIFIER: the device's proof of its SRP exchange, signed with the device
 * group key as realm and the device key as user. A wrong signature counts toward the lockout
 * like a wrong password; a right one signs the user in on that device.
 */
export const devicePasswordVerifier: ChallengeHandler = {
  precheck(responses) {
    claimResponses(responses)
    required(responses, 'DEVICE_KEY')
  },
  async respond(ctx, step) {
    const state = step.state as DevicePasswordVerifierState
    const responses = claimResponses(step.responses)
    const { DEVICE_KEY } = required(step.responses, 'DEVICE_KEY')
    if (DEVICE_KEY !== state.deviceKey) throw notAuthorized()
    const holds = passwordClaimHolds(ctx, responses, {
      ...state,
      realm: state.deviceGroupKey,
      srpUser: state.deviceKey,
    })
    const user = await signingInUser(ctx, step.sub)
    if (!holds) {
      await recordFailedSignIn(ctx, user)
      throw notAuthorized()
    }
    // Forgotten while the sign-in was under way: the device proves nothing any more.
    await trackedDevice(ctx, user.sub, state.deviceKey)
    return signedIn(ctx, user, state.deviceKey)
  },
}
