import { z } from 'zod'
import { invalidParameter } from '#server/identity/cognito-error.ts'
import { N } from '#server/identity/srp.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { userOfAccessToken } from '#server/identity/user-pool/current-user.ts'
import {
  confirmDevice,
  deviceType,
  forgetDevice,
  listTrackedDevices,
  setRememberedStatus,
  trackedDevice,
  unconfirmedDevice,
} from '#server/identity/user-pool/devices/store.ts'
import { deviceKey, token } from './schemas.ts'
import { operation } from './types.ts'

const base64 = z
  .string()
  .min(1)
  .max(1024)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64')

const confirmDeviceInput = z.object({
  AccessToken: token,
  DeviceKey: deviceKey,
  DeviceSecretVerifierConfig: z.object({ PasswordVerifier: base64, Salt: base64 }),
  DeviceName: z.string().min(1).max(1024).optional(),
})

const byDevice = z.object({ AccessToken: token, DeviceKey: deviceKey })

const listDevicesInput = z.object({
  AccessToken: token,
  Limit: z.number().int().min(0).max(60).optional(),
  PaginationToken: z.string().min(1).max(256).optional(),
})

const updateDeviceStatusInput = z.object({
  AccessToken: token,
  DeviceKey: deviceKey,
  DeviceRememberedStatus: z.enum(['remembered', 'not_remembered']).optional(),
})

/**
 * The device's SRP verifier as the clients send it (base64 of its hex bytes): v must be a
 * non-trivial element of the group, or anyone could answer for the device.
 */
function deviceVerifier(config: { PasswordVerifier: string; Salt: string }) {
  const verifier = Buffer.from(config.PasswordVerifier, 'base64')
  const salt = Buffer.from(config.Salt, 'base64')
  const v = verifier.length > 0 ? BigInt(`0x${verifier.toString('hex')}`) : 0n
  if (v <= 1n || v >= N - 1n) {
    throw invalidParameter('DeviceSecretVerifierConfig.PasswordVerifier is not a valid verifier.')
  }
  if (salt.length === 0 || salt.length > 64) {
    throw invalidParameter('DeviceSecretVerifierConfig.Salt must be 1 to 64 bytes.')
  }
  return { verifierHex: v.toString(16), saltHex: salt.toString('hex') }
}

const pageToken = {
  encode: (key: string) => Buffer.from(key, 'utf8').toString('base64url'),
  decode(value: string): string {
    const key = Buffer.from(value, 'base64url').toString('utf8')
    if (!deviceKey.safeParse(key).success) throw invalidParameter('Invalid PaginationToken.')
    return key
  },
}

/**
 * The signed-in user's devices: ConfirmDevice (after a sign-in answered NewDeviceMetadata),
 * GetDevice, ListDevices, UpdateDeviceStatus and ForgetDevice. Every one looks the device up
 * among the access token's user's own: anyone else's is "Device does not exist.".
 */
export function deviceOperations(ctx: UserPoolContext) {
  return {
    ConfirmDevice: operation(confirmDeviceInput, async (input) => {
      const { user } = await userOfAccessToken(ctx, input.AccessToken)
      const verifier = deviceVerifier(input.DeviceSecretVerifierConfig)
      const device = await unconfirmedDevice(ctx, user.sub, input.DeviceKey)
      const status = await confirmDevice(ctx, device, {
        ...verifier,
        name: input.DeviceName ?? null,
      })
      // "Opt-in": the client should ask the user, then call UpdateDeviceStatus.
      return { UserConfirmationNecessary: status !== 'remembered' }
    }),

    GetDevice: operation(byDevice, async (input) => {
      const { user } = await userOfAccessToken(ctx, input.AccessToken)
      return { Device: deviceType(await trackedDevice(ctx, user.sub, input.DeviceKey)) }
    }),

    ListDevices: operation(listDevicesInput, async (input) => {
      const { user } = await userOfAccessToken(ctx, input.AccessToken)
      const after = input.PaginationToken ? pageToken.decode(input.PaginationToken) : undefined
      const { devices, more } = await listTrackedDevices(ctx, user.sub, {
        limit: input.Limit ?? 60,
        after,
      })
      const last = devices.at(-1)
      return {
        Devices: devices.map(deviceType),
        ...(more && last && { PaginationToken: pageToken.encode(last.device_key) }),
      }
    }),

    UpdateDeviceStatus: operation(updateDeviceStatusInput, async (input) => {
      const { user } = await userOfAccessToken(ctx, input.AccessToken)
      const device = await trackedDevice(ctx, user.sub, input.DeviceKey)
      if (input.DeviceRememberedStatus) {
        await setRememberedStatus(ctx, device, input.DeviceRememberedStatus)
      }
      return {}
    }),

    ForgetDevice: operation(byDevice, async (input) => {
      const { user } = await userOfAccessToken(ctx, input.AccessToken)
      await forgetDevice(ctx, await trackedDevice(ctx, user.sub, input.DeviceKey))
      return {}
    }),
  }
}
