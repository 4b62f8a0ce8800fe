import { z } from 'zod'
import { CognitoError, invalidParameter } from '#server/identity/cognito-error.ts'
import { generateTotpSecret } from '#server/identity/totp.ts'
import {
  consumeAuthSession,
  invalidSession,
  openAuthSession,
  reopenAuthSession,
  type StoredSession,
} from '#server/identity/user-pool/auth-sessions.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { userOfAccessToken } from '#server/identity/user-pool/current-user.ts'
import type { MfaSetupState } from '#server/identity/user-pool/mfa/challenge.ts'
import {
  type MfaType,
  softwareTokenMismatch,
  spendTotpCode,
} from '#server/identity/user-pool/mfa/settings.ts'
import { sealTotpSecret } from '#server/identity/user-pool/mfa/totp-secrets.ts'
import {
  findUserBySub,
  type PoolUser,
  type PoolUserPatch,
  updateUser,
} from '#server/identity/user-pool/users.ts'
import { session, token } from './schemas.ts'
import { operation } from './types.ts'

const byTokenOrSession = {
  AccessToken: token.optional(),
  Session: session.optional(),
}

const associateSoftwareToken = z.object(byTokenOrSession)

const verifySoftwareToken = z.object({
  ...byTokenOrSession,
  UserCode: z.string().regex(/^\d{6}$/, 'must be six digits'),
  FriendlyDeviceName: z.string().max(256).optional(),
})

// amazon-cognito-identity-js sends null for a setting it leaves alone.
const mfaSettings = z
  .object({ Enabled: z.boolean().nullish(), PreferredMfa: z.boolean().nullish() })
  .nullish()

const setUserMfaPreference = z.object({
  AccessToken: token,
  SMSMfaSettings: mfaSettings,
  SoftwareTokenMfaSettings: mfaSettings,
  EmailMfaSettings: mfaSettings,
  WebAuthnMfaSettings: z.unknown().optional(),
})

const setUserSettings = z.object({
  AccessToken: token,
  MFAOptions: z
    .array(
      z.object({
        DeliveryMedium: z.enum(['SMS', 'EMAIL']).optional(),
        AttributeName: z.string().max(32).optional(),
      }),
    )
    .max(2),
})

type SetupSession = StoredSession<{ clientId: string; step: MfaSetupState }>

/** Exactly one of AccessToken and Session, as Cognito requires. */
function oneOf(input: { AccessToken?: string | undefined; Session?: string | undefined }) {
  if (Boolean(input.AccessToken) === Boolean(input.Session)) {
    throw invalidParameter('Exactly one of AccessToken and Session must be given.')
  }
}

/** The MFA_SETUP session of a sign-in, in the phase the step expects. */
async function setupSession(
  ctx: UserPoolContext,
  value: string,
  phase: MfaSetupState['phase'],
): Promise<{ stored: SetupSession; user: PoolUser }> {
  const stored = (await consumeAuthSession(ctx, value)) as SetupSession
  const user = stored.sub ? await findUserBySub(ctx.db, stored.sub) : undefined
  if (stored.challenge !== 'MFA_SETUP' || stored.state.step?.phase !== phase || !user) {
    throw invalidSession()
  }
  return { stored, user }
}

async function continueSetup(
  ctx: UserPoolContext,
  stored: SetupSession,
  phase: MfaSetupState['phase'],
): Promise<string> {
  return openAuthSession(ctx, {
    sub: stored.sub,
    challenge: 'MFA_SETUP',
    state: { clientId: stored.state.clientId, step: { ...stored.state.step, phase } },
  })
}

function assertMfaAvailable(ctx: UserPoolContext): void {
  if (ctx.settings.mfa === 'off') {
    throw invalidParameter('MFA is not enabled for this user pool.')
  }
}

/**
 * Authenticator-app (TOTP) MFA and the MFA settings: AssociateSoftwareToken and
 * VerifySoftwareToken (signed in, or during MFA_SETUP with the sign-in's Session),
 * SetUserMFAPreference, and the legacy SetUserSettings for "SMS" MFA (mailed codes).
 */
export function mfaOperations(ctx: UserPoolContext) {
  // Long by design: a factory whose returned methods share its private state; each method is short.
  return {
    AssociateSoftwareToken: operation(associateSoftwareToken, async (input) => {
      oneOf(input)
      assertMfaAvailable(ctx)
      const secret = generateTotpSecret()
      if (input.AccessToken) {
        const { user } = await userOfAccessToken(ctx, input.AccessToken)
        await updateUser(
          ctx.db,
          user.sub,
          { totp_pending_secret: sealTotpSecret(ctx, secret) },
          ctx.now(),
        )
        return { SecretCode: secret }
      }
      const { stored, user } = await setupSession(ctx, input.Session as string, 'setup')
      await updateUser(
        ctx.db,
        user.sub,
        { totp_pending_secret: sealTotpSecret(ctx, secret) },
        ctx.now(),
      )
      return { SecretCode: secret, Session: await continueSetup(ctx, stored, 'associated') }
    }),

    VerifySoftwareToken: operation(verifySoftwareToken, async (input) => {
      oneOf(input)
      assertMfaAvailable(ctx)
      if (input.AccessToken) {
        const { user } = await userOfAccessToken(ctx, input.AccessToken)
        if (!user.totp_pending_secret) throw notAssociated()
        if (
          (await spendTotpCode(ctx, user, user.totp_pending_secret, input.UserCode)) === undefined
        ) {
          throw softwareTokenMismatch()
        }
        // Verified, not yet turned on: SetUserMFAPreference does that (unless it already was).
        await updateUser(
          ctx.db,
          user.sub,
          { totp_secret: user.totp_pending_secret, totp_pending_secret: null },
          ctx.now(),
        )
        return { Status: 'SUCCESS' }
      }
      const sessionValue = input.Session as string
      const { stored, user } = await setupSession(ctx, sessionValue, 'associated')
      if (!user.totp_pending_secret) throw notAssociated()
      if (
        (await spendTotpCode(ctx, user, user.totp_pending_secret, input.UserCode)) === undefined
      ) {
        await reopenAuthSession(ctx, sessionValue, stored)
        throw softwareTokenMismatch()
      }
      // Set up during sign-in: this becomes the user's MFA at once, as in Cognito.
      await updateUser(
        ctx.db,
        user.sub,
        {
          totp_secret: user.totp_pending_secret,
          totp_pending_secret: null,
          totp_enabled: 1,
          preferred_mfa: 'SOFTWARE_TOKEN_MFA',
        },
        ctx.now(),
      )
      return { Status: 'SUCCESS', Session: await continueSetup(ctx, stored, 'verified') }
    }),

    SetUserMFAPreference: operation(setUserMfaPreference, async (input) => {
      const { user } = await userOfAccessToken(ctx, input.AccessToken)
      if (input.EmailMfaSettings?.Enabled || input.EmailMfaSettings?.PreferredMfa) {
        throw invalidParameter('Email MFA is not supported by this user pool.')
      }
      const changes: [MfaType, z.infer<typeof mfaSettings>][] = [
        ['SMS_MFA', input.SMSMfaSettings],
        ['SOFTWARE_TOKEN_MFA', input.SoftwareTokenMfaSettings],
      ]
      const patch: PoolUserPatch = {}
      let preferred = user.preferred_mfa
      for (const [type, settings] of changes) {
        if (!settings) continue
        if (settings.PreferredMfa === true && settings.Enabled === false) {
          throw invalidParameter('A preferred MFA must be enabled.')
        }
        const enable = settings.Enabled ?? (settings.PreferredMfa === true ? true : null)
        if (enable === true) {
          assertMfaAvailable(ctx)
          assertCanEnable(user, type)
        }
        if (enable !== null) {
          if (type === 'SMS_MFA') patch.sms_mfa_enabled = enable ? 1 : 0
          else patch.totp_enabled = enable ? 1 : 0
        }
        if (settings.PreferredMfa === true) preferred = type
        else if (
          preferred === type &&
          (settings.PreferredMfa === false || settings.Enabled === false)
        ) {
          preferred = null
        }
      }
      patch.preferred_mfa = preferred
      await updateUser(ctx.db, user.sub, patch, ctx.now())
      return {}
    }),

    SetUserSettings: operation(setUserSettings, async (input) => {
      const { user } = await userOfAccessToken(ctx, input.AccessToken)
      const enable = input.MFAOptions.some((option) => option.DeliveryMedium !== undefined)
      if (enable) {
        assertMfaAvailable(ctx)
        assertCanEnable(user, 'SMS_MFA')
      }
      await updateUser(
        ctx.db,
        user.sub,
        {
          sms_mfa_enabled: enable ? 1 : 0,
          ...(!enable && user.preferred_mfa === 'SMS_MFA' && { preferred_mfa: null }),
        },
        ctx.now(),
      )
      return {}
    }),
  }
}

function assertCanEnable(user: PoolUser, type: MfaType): void {
  if (type === 'SOFTWARE_TOKEN_MFA' && user.totp_secret === null) {
    throw invalidParameter('User has not verified software token mfa')
  }
  if (type === 'SMS_MFA' && (user.email === null || user.email_verified !== 1)) {
    throw invalidParameter('User does not have delivery config set to turn on SMS_MFA')
  }
}

const notAssociated = () =>
  new CognitoError(
    'SoftwareTokenMFANotFoundException',
    'Software token has not been associated with the user (AssociateSoftwareToken first).',
  )
