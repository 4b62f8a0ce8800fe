import { CognitoError } from '#server/identity/cognito-error.ts'
import { totpReplayed, verifyTotp } from '#server/identity/totp.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import type { PoolUser } from '#server/identity/user-pool/users.ts'
import { openTotpSecret } from './totp-secrets.ts'

/**
 * A user's MFA as Cognito reports it. SMS_MFA codes are mailed to the verified email for now
 * (there is no SMS delivery), so "SMS" MFA needs a verified email rather than a phone.
 */
export type MfaType = 'SMS_MFA' | 'SOFTWARE_TOKEN_MFA'
export const MFA_TYPES: readonly MfaType[] = ['SMS_MFA', 'SOFTWARE_TOKEN_MFA']

/** The MFA types the user has turned on, in Cognito's order. */
export function enabledMfa(user: PoolUser): MfaType[] {
  const enabled: MfaType[] = []
  if (user.sms_mfa_enabled === 1 && user.email !== null && user.email_verified === 1) {
    enabled.push('SMS_MFA')
  }
  if (user.totp_enabled === 1 && user.totp_secret !== null) enabled.push('SOFTWARE_TOKEN_MFA')
  return enabled
}

export function preferredMfa(user: PoolUser): MfaType | undefined {
  const preferred = user.preferred_mfa
  return preferred !== null && enabledMfa(user).includes(preferred) ? preferred : undefined
}

/** GetUser's MFA members: present only when there is something to say, as in Cognito. */
export function mfaDescription(user: PoolUser) {
  const enabled = enabledMfa(user)
  const preferred = preferredMfa(user)
  return {
    ...(enabled.includes('SMS_MFA') && {
      MFAOptions: [{ DeliveryMedium: 'EMAIL', AttributeName: 'email' }],
    }),
    ...(enabled.length > 0 && { UserMFASettingList: enabled }),
    ...(preferred && { PreferredMfaSetting: preferred }),
  }
}

export const softwareTokenMismatch = () =>
  new CognitoError('EnableSoftwareTokenMFAException', 'Code mismatch')

/**
 * Checks an authenticator-app code against a sealed secret and spends its time step: the
 * step must be later than the last one accepted for the user, so a code works only once.
 * Resolves to the step, or undefined for a wrong, stale or replayed code.
 */
export async function spendTotpCode(
  ctx: UserPoolContext,
  user: PoolUser,
  sealedSecret: string | null,
  code: string,
): Promise<number | undefined> {
  const secret = openTotpSecret(ctx, sealedSecret)
  if (!secret) return undefined
  const step = verifyTotp(secret, code, ctx.now(), user.totp_last_used_step)
  if (step === undefined) return undefined
  // Conditional, so two requests racing with one code cannot both succeed.
  const result = await ctx.db
    .updateTable('identity_users')
    .set({ totp_last_used_step: step })
    .where('sub', '=', user.sub)
    .where((eb) =>
      eb.or([eb('totp_last_used_step', 'is', null), eb('totp_last_used_step', '<', step)]),
    )
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0 ? step : undefined
}

/** Whether a refused code is the user's right code, already spent (see totpReplayed). */
export function totpCodeReplayed(
  ctx: UserPoolContext,
  user: PoolUser,
  sealedSecret: string | null,
  code: string,
): boolean {
  const secret = openTotpSecret(ctx, sealedSecret)
  return secret !== undefined && totpReplayed(secret, code, ctx.now(), user.totp_last_used_step)
}
