import { z } from 'zod'
import { CognitoError, notAuthorized } from '#server/identity/cognito-error.ts'
import { revokeAllRefreshTokens } from '#server/identity/tokens/refresh-tokens.ts'
import { sendCode, simulatedDelivery, spendCode } from '#server/identity/user-pool/codes.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { userOfAccessToken } from '#server/identity/user-pool/current-user.ts'
import {
  assertNotLocked,
  clearLockout,
  recordFailedSignIn,
} from '#server/identity/user-pool/lockout.ts'
import {
  assertPasswordPolicy,
  passwordColumns,
  passwordMatches,
} from '#server/identity/user-pool/passwords.ts'
import { findUserBySignInName, updateUser } from '#server/identity/user-pool/users.ts'
import {
  assertClient,
  clientId,
  confirmationCode,
  ignored,
  password,
  token,
  username,
} from './schemas.ts'
import { endAllSessions } from './sign-out.ts'
import { userNotFound } from './sign-up.ts'
import { operation } from './types.ts'

const changePassword = z.object({
  AccessToken: token,
  PreviousPassword: password.optional(),
  ProposedPassword: password,
})

const forgotPassword = z.object({ ClientId: clientId, Username: username, ...ignored })

const confirmForgotPassword = z.object({
  ClientId: clientId,
  Username: username,
  ConfirmationCode: confirmationCode,
  Password: password,
  ...ignored,
})

/** ChangePassword (signed in), and ForgotPassword / ConfirmForgotPassword (by emailed code). */
export function passwordOperations(ctx: UserPoolContext) {
  return {
    ChangePassword: operation(changePassword, async (input) => {
      const { user, claims } = await userOfAccessToken(ctx, input.AccessToken)
      assertPasswordPolicy(input.ProposedPassword)
      await assertNotLocked(ctx, user)
      if (!passwordMatches(ctx.poolName, user, input.PreviousPassword ?? '')) {
        await recordFailedSignIn(ctx, user)
        throw notAuthorized()
      }
      await updateUser(
        ctx.db,
        user.sub,
        passwordColumns(ctx.poolName, user.username, input.ProposedPassword),
        ctx.now(),
      )
      // Whoever knew the old password may hold a session: end all but the one that changed it.
      await revokeAllRefreshTokens(ctx.db, user.sub, ctx.now(), String(claims.origin_jti))
      return {}
    }),

    ForgotPassword: operation(forgotPassword, async (input) => {
      assertClient(ctx, input.ClientId)
      const user = await findUserBySignInName(ctx.db, input.Username)
      if (!user) {
        if (!ctx.settings.preventUserExistenceErrors) throw userNotFound()
        // Say the same as for a real account, so the answer does not reveal who has one.
        return { CodeDeliveryDetails: await simulatedDelivery(ctx, input.Username) }
      }
      if (user.email_verified !== 1) {
        throw new CognitoError(
          'InvalidParameterException',
          'Cannot reset password for the user as there is no registered/verified email or phone_number',
        )
      }
      if (user.enabled !== 1) throw notAuthorized('User is disabled.')
      return { CodeDeliveryDetails: await sendCode(ctx, user, 'forgot_password') }
    }),

    ConfirmForgotPassword: operation(confirmForgotPassword, async (input) => {
      assertClient(ctx, input.ClientId)
      const user = await findUserBySignInName(ctx.db, input.Username)
      if (!user) {
        throw new CognitoError(
          'CodeMismatchException',
          'Invalid verification code provided, please try again.',
        )
      }
      assertPasswordPolicy(input.Password)
      await spendCode(ctx, user, 'forgot_password', input.ConfirmationCode)
      // A Google-only account (EXTERNAL_PROVIDER) gains a password here, after the email proof.
      const confirmed =
        user.status === 'RESET_REQUIRED' ||
        user.status === 'FORCE_CHANGE_PASSWORD' ||
        user.status === 'EXTERNAL_PROVIDER'
      await updateUser(
        ctx.db,
        user.sub,
        {
          ...passwordColumns(ctx.poolName, user.username, input.Password),
          ...(confirmed && { status: 'CONFIRMED', temporary_password_expires_at: null }),
          failed_sign_ins: 0,
          last_failed_sign_in_at: null,
          locked_until: null,
        },
        ctx.now(),
      )
      // A reset means the password may be known to someone else: end every session.
      await endAllSessions(ctx, user.sub)
      await clearLockout(ctx, user)
      return {}
    }),
  }
}
