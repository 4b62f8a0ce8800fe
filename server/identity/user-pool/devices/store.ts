import { randomBytes, randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import type { IdentityDevicesTable } from '#db/schema.ts'
import { resourceNotFound } from '#server/identity/cognito-error.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'

/**
 * The devices a user signed in from. Every sign-in that does not come from a known device
 * gets a new one (NewDeviceMetadata); it becomes *tracked* when the client confirms it with
 * an SRP verifier of its own random secret (ConfirmDevice), and *remembered* by the pool's
 * setting or the user's choice. Only tracked devices are listed, fetched or used to sign in.
 */
export type DeviceRow = Selectable<IdentityDevicesTable>

export type RememberedStatus = IdentityDevicesTable['remembered_status']

export const deviceNotFound = () => resourceNotFound('Device does not exist.')

const GROUP_KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** Cognito's DeviceGroupKey shape: a dash and nine letters or digits (the SRP realm). */
function newDeviceGroupKey(): string {
  const bytes = randomBytes(9)
  return `-${Array.from(bytes, (byte) => GROUP_KEY_ALPHABET[byte % GROUP_KEY_ALPHABET.length]).join('')}`
}

/** A device for a sign-in that came from no known device; confirmed later by the client. */
export async function createDevice(
  ctx: UserPoolContext,
  sub: string,
  ip: string | null,
): Promise<{ DeviceKey: string; DeviceGroupKey: string }> {
  const now = ctx.now()
  const DeviceKey = `${ctx.settings.region}_${randomUUID()}`
  const DeviceGroupKey = newDeviceGroupKey()
  await ctx.db
    .insertInto('identity_devices')
    .values({
      device_key: DeviceKey,
      sub,
      device_group_key: DeviceGroupKey,
      password_salt: null,
      password_verifier: null,
      name: null,
      remembered_status: 'not_remembered',
      created_at: now,
      last_modified_at: now,
      last_authenticated_at: now,
      last_ip_used: ip,
    })
    .execute()
  return { DeviceKey, DeviceGroupKey }
}

async function findDevice(ctx: UserPoolContext, sub: string, deviceKey: string) {
  return ctx.db
    .selectFrom('identity_devices')
    .selectAll()
    .where('device_key', '=', deviceKey)
    .where('sub', '=', sub)
    .executeTakeFirst()
}

/** One of the user's tracked devices, or Cognito's "Device does not exist." */
export async function trackedDevice(
  ctx: UserPoolContext,
  sub: string,
  deviceKey: string,
): Promise<DeviceRow> {
  const device = await findDevice(ctx, sub, deviceKey)
  if (!device?.password_verifier) throw deviceNotFound()
  return device
}

/** One of the user's devices not yet confirmed (ConfirmDevice), or "Device does not exist." */
export async function unconfirmedDevice(
  ctx: UserPoolContext,
  sub: string,
  deviceKey: string,
): Promise<DeviceRow> {
  const device = await findDevice(ctx, sub, deviceKey)
  if (!device || device.password_verifier !== null) throw deviceNotFound()
  return device
}

export async function confirmDevice(
  ctx: UserPoolContext,
  device: DeviceRow,
  values: { saltHex: string; verifierHex: string; name: string | null },
): Promise<RememberedStatus> {
  const status: RememberedStatus =
    ctx.settings.rememberDevices === 'always' ? 'remembered' : 'not_remembered'
  await ctx.db
    .updateTable('identity_devices')
    .set({
      password_salt: values.saltHex,
      password_verifier: values.verifierHex,
      name: values.name,
      remembered_status: status,
      last_modified_at: ctx.now(),
    })
    .where('device_key', '=', device.device_key)
    .where('password_verifier', 'is', null)
    .execute()
  return status
}

export async function setRememberedStatus(
  ctx: UserPoolContext,
  device: DeviceRow,
  status: RememberedStatus,
): Promise<void> {
  await ctx.db
    .updateTable('identity_devices')
    .set({ remembered_status: status, last_modified_at: ctx.now() })
    .where('device_key', '=', device.device_key)
    .execute()
}

/** A sign-in proved the device (DEVICE_PASSWORD_VERIFIER). */
export async function recordDeviceSignIn(
  ctx: UserPoolContext,
  deviceKey: string,
  ip: string | null,
): Promise<void> {
  await ctx.db
    .updateTable('identity_devices')
    .set({ last_authenticated_at: ctx.now(), last_ip_used: ip })
    .where('device_key', '=', deviceKey)
    .execute()
}

/**
 * Forgets a device and ends the sessions started on it: with device tracking, a refresh token
 * belongs to one device, and a forgotten device's refresh tokens stop working.
 */
export async function forgetDevice(ctx: UserPoolContext, device: DeviceRow): Promise<void> {
  const now = ctx.now()
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('identity_refresh_tokens')
      .set({ revoked_at: now })
      .where('device_key', '=', device.device_key)
      .where('sub', '=', device.sub)
      .where('revoked_at', 'is', null)
      .execute()
    await trx.deleteFrom('identity_devices').where('device_key', '=', device.device_key).execute()
  })
}

/** A page of the user's tracked devices, in a stable order (by key). */
export async function listTrackedDevices(
  ctx: UserPoolContext,
  sub: string,
  page: { limit: number; after: string | undefined },
): Promise<{ devices: DeviceRow[]; more: boolean }> {
  let query = ctx.db
    .selectFrom('identity_devices')
    .selectAll()
    .where('sub', '=', sub)
    .where('password_verifier', 'is not', null)
  if (page.after !== undefined) query = query.where('device_key', '>', page.after)
  const rows = await query
    .orderBy('device_key')
    .limit(page.limit + 1)
    .execute()
  return { devices: rows.slice(0, page.limit), more: rows.length > page.limit }
}

/** Cognito's DeviceType: attributes as name/value pairs and dates in epoch seconds. */
export function deviceType(device: DeviceRow) {
  const seconds = (ms: number) => ms / 1000
  const attributes: { Name: string; Value: string }[] = [
    { Name: 'device_status', Value: 'valid' },
    { Name: 'dev:device_remembered_status', Value: device.remembered_status },
  ]
  if (device.name !== null) attributes.push({ Name: 'device_name', Value: device.name })
  if (device.last_ip_used !== null) {
    attributes.push({ Name: 'last_ip_used', Value: device.last_ip_used })
  }
  return {
    DeviceKey: device.device_key,
    DeviceAttributes: attributes,
    DeviceCreateDate: seconds(device.created_at),
    DeviceLastModifiedDate: seconds(device.last_modified_at),
    ...(device.last_authenticated_at !== null && {
      DeviceLastAuthenticatedDate: seconds(device.last_authenticated_at),
    }),
  }
}
