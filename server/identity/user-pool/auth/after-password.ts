import { CognitoError, notAuthorized } from '#server/identity/cognito-error.ts'
import { attributeList } from '#server/identity/user-pool/attributes.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { trackedDevice } from '#server/identity/user-pool/devices/store.ts'
import { assertNotLocked, recordSuccessfulSignIn } from '#server/identity/user-pool/lockout.ts'
import { mfaStep } from '#server/identity/user-pool/mfa/challenge.ts'
import { findUserBySub, type PoolUser } from '#server/identity/user-pool/users.ts'
import type { AuthOutcome } from './outcome.ts'

/** Attributes a client may not send back in NEW_PASSWORD_REQUIRED. */
const READ_ONLY = new Set(['sub', 'email_verified', 'phone_number_verified'])

/** What DEVICE_SRP_AUTH keeps: the device the client said it signs in from. */
export type DeviceSrpState = { username: string; deviceKey: string }

/**
 * What follows a proven password, whichever flow proved it: the account's state decides
 * whether the user is signed in, must answer another challenge, or is refused. Further
 * challenges (MFA, remembered devices) belong here, in the order Cognito asks them.
 * Failed attempts are cleared only when the whole sign-in succeeds, so wrong MFA codes
 * after a right password still add up to a lockout. `deviceKey` is the client's DEVICE_KEY.
 */
export async function afterPassword(
  ctx: UserPoolContext,
  user: PoolUser,
  deviceKey: string | undefined,
): Promise<AuthOutcome> {
  if (user.enabled !== 1) throw notAuthorized('User is disabled.')
  switch (user.status) {
    case 'UNCONFIRMED':
      throw new CognitoError('UserNotConfirmedException', 'User is not confirmed.')
    case 'RESET_REQUIRED':
      throw new CognitoError(
        'PasswordResetRequiredException',
        'Password reset required for the user',
      )
    case 'FORCE_CHANGE_PASSWORD': {
      if ((user.temporary_password_expires_at ?? Number.POSITIVE_INFINITY) <= ctx.now()) {
        throw notAuthorized('Temporary password has expired and must be reset by an administrator.')
      }
      const attributes = Object.fromEntries(
        attributeList(user)
          .filter((attribute) => !READ_ONLY.has(attribute.Name))
          .map((attribute) => [attribute.Name, attribute.Value]),
      )
      return {
        kind: 'challenge',
        name: 'NEW_PASSWORD_REQUIRED',
        parameters: {
          USER_ID_FOR_SRP: user.username,
          requiredAttributes: '[]',
          userAttributes: JSON.stringify(attributes),
        },
        sub: user.sub,
        state: { username: user.username, deviceKey },
      }
    }
    default:
      return afterFirstFactor(ctx, user, deviceKey)
  }
}

/**
 * After the first factor (a password or an emailed code): a *remembered* device stands in for
 * MFA and is proven by DEVICE_SRP_AUTH; a tracked device that is not remembered counts for
 * nothing (MFA is asked as usual), though the session still belongs to it. A DEVICE_KEY that
 * names none of the user's tracked devices is "Device does not exist.", on which the clients
 * drop their stored device and sign in again without it.
 */
export async function afterFirstFactor(
  ctx: UserPoolContext,
  user: PoolUser,
  deviceKey: string | undefined,
): Promise<AuthOutcome> {
  const device = deviceKey === undefined ? undefined : await trackedDevice(ctx, user.sub, deviceKey)
  if (device?.remembered_status === 'remembered') return deviceSrpStep(user, device.device_key)
  const known = device?.device_key ?? null
  return (await mfaStep(ctx, user, device?.device_key)) ?? signedIn(ctx, user, known)
}

/**
 * The last step of every successful sign-in. `deviceKey` names the user's known device the
 * sign-in came from; null means a new device, which the client is told about.
 */
export async function signedIn(
  ctx: UserPoolContext,
  user: PoolUser,
  deviceKey: string | null,
): Promise<AuthOutcome> {
  await recordSuccessfulSignIn(ctx, user, deviceKey ?? undefined)
  return { kind: 'signed-in', user, deviceKey }
}

function deviceSrpStep(user: PoolUser, deviceKey: string): AuthOutcome {
  const state: DeviceSrpState = { username: user.username, deviceKey }
  return { kind: 'challenge', name: 'DEVICE_SRP_AUTH', parameters: {}, sub: user.sub, state }
}

/**
 * The account a later challenge of a sign-in belongs to, still allowed to sign in: it may
 * have been disabled, deleted or locked since the session began.
 */
export async function signingInUser(ctx: UserPoolContext, sub: string | null): Promise<PoolUser> {
  const user = sub ? await findUserBySub(ctx.db, sub) : undefined
  if (!user) throw notAuthorized()
  if (user.enabled !== 1) throw notAuthorized('User is disabled.')
  await assertNotLocked(ctx, user)
  return user
}
