import { randomBytes } from 'node:crypto'
import { invalidParameter, notAuthorized } from '#server/identity/cognito-error.ts'
import { isValidClientEphemeral, serverEphemeral, serverSessionKey } from '#server/identity/srp.ts'
import {
  type DeviceSrpState,
  signingInUser,
} from '#server/identity/user-pool/auth/after-password.ts'
import { required } from '#server/identity/user-pool/auth/outcome.ts'
import { trackedDevice } from '#server/identity/user-pool/devices/store.ts'
import type { ChallengeHandler } from './types.ts'

/** What DEVICE_PASSWORD_VERIFIER needs: the derived key never leaves the server. */
export type DevicePasswordVerifierState = DeviceSrpState & {
  deviceGroupKey: string
  keyHex: string
  secretBlock: string
}

/**
 * DEVICE_SRP_AUTH: the user is proven, now the device. The client sends A for an SRP exchange
 * in which the device key is the user name, the device group key the realm, and the random
 * secret it made at ConfirmDevice the password; the server answers with the device's salt and
 * B, as USER_SRP_AUTH does for the user.
 */
export const deviceSrpAuth: ChallengeHandler = {
  precheck(responses) {
    required(responses, 'USERNAME', 'DEVICE_KEY', 'SRP_A')
  },
  async respond(ctx, step) {
    const state = step.state as DeviceSrpState
    const { USERNAME, DEVICE_KEY, SRP_A } = required(
      step.responses,
      'USERNAME',
      'DEVICE_KEY',
      'SRP_A',
    ) as Record<'USERNAME' | 'DEVICE_KEY' | 'SRP_A', string>
    if (!isValidClientEphemeral(SRP_A)) throw invalidParameter('Invalid SRP_A value.')
    if (USERNAME.toLowerCase() !== state.username || DEVICE_KEY !== state.deviceKey) {
      throw notAuthorized()
    }
    const user = await signingInUser(ctx, step.sub)
    const device = await trackedDevice(ctx, user.sub, DEVICE_KEY)
    const verifierHex = device.password_verifier as string
    const { bHex, BHex } = serverEphemeral(verifierHex)
    const key = serverSessionKey({ AHex: SRP_A, BHex, bHex, verifierHex })
    if (!key) throw notAuthorized()
    const secretBlock = randomBytes(64).toString('base64')
    const next: DevicePasswordVerifierState = {
      ...state,
      deviceGroupKey: device.device_group_key,
      keyHex: key.toString('hex'),
      secretBlock,
    }
    return {
      kind: 'challenge',
      name: 'DEVICE_PASSWORD_VERIFIER',
      parameters: {
        DEVICE_KEY: device.device_key,
        SALT: device.password_salt as string,
        SECRET_BLOCK: secretBlock,
        SRP_B: BHex,
        USERNAME: user.username,
      },
      sub: user.sub,
      state: next,
    }
  },
}
