import type { ChallengeStep } from '#server/identity/user-pool/auth/outcome.ts'
import { sendCode } from '#server/identity/user-pool/codes.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import type { PoolUser } from '#server/identity/user-pool/users.ts'
import { enabledMfa, type MfaType, preferredMfa } from './settings.ts'

/**
 * What the MFA challenges keep under their Session: whose sign-in it is, and the tracked (not
 * remembered) device it comes from, to which the session will belong.
 */
export type MfaState = { username: string; deviceKey?: string | undefined }

/** What MFA_SETUP keeps: how far the authenticator app's setup has come. */
export type MfaSetupState = MfaState & { phase: 'setup' | 'associated' | 'verified' }

/**
 * The MFA step after a proven first factor, if any: the user's one MFA, or the preferred one,
 * or SELECT_MFA_TYPE when they have two and prefer neither; MFA_SETUP when the pool requires
 * MFA and the user has none. Lists in parameters are JSON strings, as Cognito sends them.
 */
export async function mfaStep(
  ctx: UserPoolContext,
  user: PoolUser,
  deviceKey: string | undefined,
): Promise<ChallengeStep | undefined> {
  if (ctx.settings.mfa === 'off') return undefined
  const enabled = enabledMfa(user)
  if (enabled.length === 0) {
    if (ctx.settings.mfa !== 'on') return undefined
    const state: MfaSetupState = { username: user.username, deviceKey, phase: 'setup' }
    return {
      kind: 'challenge',
      name: 'MFA_SETUP',
      parameters: { MFAS_CAN_SETUP: JSON.stringify(['SOFTWARE_TOKEN_MFA']) },
      sub: user.sub,
      state,
    }
  }
  const chosen = enabled.length === 1 ? enabled[0] : preferredMfa(user)
  const state: MfaState = { username: user.username, deviceKey }
  if (!chosen) {
    return {
      kind: 'challenge',
      name: 'SELECT_MFA_TYPE',
      parameters: { MFAS_CAN_CHOOSE: JSON.stringify(enabled), USER_ID_FOR_SRP: user.username },
      sub: user.sub,
      state,
    }
  }
  return mfaChallenge(ctx, user, chosen, state)
}

/** The challenge for one MFA type; for SMS_MFA this sends the code. */
export async function mfaChallenge(
  ctx: UserPoolContext,
  user: PoolUser,
  type: MfaType,
  state: MfaState,
): Promise<ChallengeStep> {
  if (type === 'SOFTWARE_TOKEN_MFA') {
    return {
      kind: 'challenge',
      name: 'SOFTWARE_TOKEN_MFA',
      parameters: { USER_ID_FOR_SRP: user.username },
      sub: user.sub,
      state,
    }
  }
  const delivery = await sendCode(ctx, user, 'sms_mfa')
  return {
    kind: 'challenge',
    name: 'SMS_MFA',
    parameters: {
      CODE_DELIVERY_DELIVERY_MEDIUM: delivery.DeliveryMedium,
      CODE_DELIVERY_DESTINATION: delivery.Destination,
      USER_ID_FOR_SRP: user.username,
    },
    sub: user.sub,
    state,
  }
}
