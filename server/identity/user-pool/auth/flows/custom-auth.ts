import { invalidParameter } from '#server/identity/cognito-error.ts'
import { type ChallengeStep, required } from '#server/identity/user-pool/auth/outcome.ts'
import { sendCode, simulatedDelivery } from '#server/identity/user-pool/codes.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { deviceNotFound, trackedDevice } from '#server/identity/user-pool/devices/store.ts'
import { assertNotLocked } from '#server/identity/user-pool/lockout.ts'
import {
  assertUserExistenceErrorsPrevented,
  findUserBySignInName,
  normalizeUsername,
} from '#server/identity/user-pool/users.ts'

/** What CUSTOM_CHALLENGE keeps: whose code it is and how many wrong answers it has seen. */
export type CustomChallengeState = {
  username: string
  /** The DEVICE_KEY of InitiateAuth; the answer may name it again. */
  deviceKey?: string | undefined
  attempts: number
  parameters: Record<string, string>
}

/**
 * CUSTOM_AUTH: sign-in by a one-time code mailed to the verified email (the pool's own
 * "custom" challenge; there are no Lambda triggers). Only confirmed, enabled accounts with a
 * verified email get a code; any other name gets the same answer without one, so the answer
 * does not tell who has an account. Sending is rate limited with the other codes.
 * CUSTOM_AUTH with SRP (CHALLENGE_NAME SRP_A) is not offered.
 */
export async function customAuth(
  ctx: UserPoolContext,
  parameters: Record<string, string> | undefined,
): Promise<ChallengeStep> {
  const { USERNAME } = required(parameters, 'USERNAME') as { USERNAME: string }
  if (parameters?.SRP_A !== undefined || parameters?.CHALLENGE_NAME !== undefined) {
    throw invalidParameter('CUSTOM_AUTH with SRP is not supported: answer the emailed code.')
  }
  const user = await findUserBySignInName(ctx.db, USERNAME)
  if (!user) assertUserExistenceErrorsPrevented(ctx)
  if (user) await assertNotLocked(ctx, user)
  const eligible =
    user?.status === 'CONFIRMED' &&
    user.enabled === 1 &&
    user.email !== null &&
    user.email_verified === 1
      ? user
      : undefined
  const username = user?.username ?? normalizeUsername(USERNAME)
  // A stored device is checked before a code is spent: Amplify retries this first step, not
  // the answer, when its device is "Device does not exist.".
  if (parameters?.DEVICE_KEY !== undefined) {
    if (!eligible) throw deviceNotFound()
    await trackedDevice(ctx, eligible.sub, parameters.DEVICE_KEY)
  }
  let destination: string
  if (eligible) {
    destination = (await sendCode(ctx, eligible, 'custom_auth')).Destination
  } else {
    destination = (await simulatedDelivery(ctx, USERNAME)).Destination
  }
  const challengeParameters = { USERNAME: username, email: destination }
  const state: CustomChallengeState = {
    username,
    deviceKey: parameters?.DEVICE_KEY,
    attempts: 0,
    parameters: challengeParameters,
  }
  return {
    kind: 'challenge',
    name: 'CUSTOM_CHALLENGE',
    parameters: challengeParameters,
    sub: eligible?.sub ?? null,
    state,
  }
}
