import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { CognitoError, invalidParameter, notAuthorized } from '#server/identity/cognito-error.ts'
import { limitMail, limitSignUp } from '#server/identity/user-pool/abuse-limits.ts'
import { maskEmail, newUserAttributes } from '#server/identity/user-pool/attributes.ts'
import {
  type CodeDeliveryDetails,
  sendCode,
  simulatedDelivery,
  spendCode,
} from '#server/identity/user-pool/codes.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { claimEmail } from '#server/identity/user-pool/email-alias.ts'
import { emailInUseMessage } from '#server/identity/user-pool/messages.ts'
import { assertPasswordPolicy, passwordColumns } from '#server/identity/user-pool/passwords.ts'
import {
  findUserByUsername,
  findUserByVerifiedEmail,
  insertUser,
  normalizeUsername,
  type PoolUser,
  updateUser,
} from '#server/identity/user-pool/users.ts'
import {
  assertClient,
  attributes,
  clientId,
  confirmationCode,
  ignored,
  password,
  username,
} from './schemas.ts'
import { operation } from './types.ts'

const signUp = z.object({
  ClientId: clientId,
  Username: username,
  Password: password,
  UserAttributes: attributes.optional(),
  ValidationData: attributes.optional(),
  ...ignored,
})

const confirmSignUp = z.object({
  ClientId: clientId,
  Username: username,
  ConfirmationCode: confirmationCode,
  ForceAliasCreation: z.boolean().optional(),
  ...ignored,
})

const resendConfirmationCode = z.object({ ClientId: clientId, Username: username, ...ignored })

export const userNotFound = () =>
  new CognitoError('UserNotFoundException', 'Username/client id combination not found.')

/**
 * The sign-up code; or, when another account already has the address verified (so that
 * confirming could only end in AliasExistsException), a mail telling the address's owner that
 * it is in use and how to sign in or reset the password. The answer looks the same either
 * way and the unconfirmed account is kept, so neither tells a stranger that the address is
 * registered (docs/decisions/026).
 */
async function sendSignUpCode(ctx: UserPoolContext, user: PoolUser) {
  const holder = user.email ? await findUserByVerifiedEmail(ctx.db, user.email) : undefined
  if (!user.email || !holder || holder.sub === user.sub) return sendCode(ctx, user, 'sign_up')
  await limitMail(ctx, user.email)
  await ctx.mailer.send(emailInUseMessage(user.email, holder.username, siteUrl(ctx)))
  return {
    Destination: maskEmail(user.email),
    DeliveryMedium: 'EMAIL',
    AttributeName: 'email',
  } satisfies CodeDeliveryDetails
}

/** The site's base URL: the issuer is `{base URL}/cognito-idp/{pool id}`. */
const siteUrl = (ctx: UserPoolContext) =>
  ctx.settings.issuer.slice(0, ctx.settings.issuer.lastIndexOf('/cognito-idp/'))

/** Registration: SignUp, ConfirmSignUp (the emailed code) and ResendConfirmationCode. */
export function signUpOperations(ctx: UserPoolContext) {
  // Long by design: a factory whose returned methods share its private state; each method is short.
  return {
    SignUp: operation(signUp, async (input) => {
      assertClient(ctx, input.ClientId)
      if (await findUserByUsername(ctx.db, input.Username)) {
        throw new CognitoError('UsernameExistsException', 'User already exists')
      }
      const refusal = await ctx.events.usernameRefusal(input.Username)
      if (refusal) throw invalidParameter(refusal)
      assertPasswordPolicy(input.Password)
      const name = normalizeUsername(input.Username)
      const columns = newUserAttributes(input.UserAttributes ?? [], { trusted: false })
      // With PreventUserExistenceErrors the answer does not tell whether the address is taken;
      // its owner is told by mail instead (sendSignUpCode; docs/decisions/026).
      if (
        !ctx.settings.preventUserExistenceErrors &&
        columns.email &&
        (await findUserByVerifiedEmail(ctx.db, columns.email))
      ) {
        throw new CognitoError(
          'UsernameExistsException',
          'An account with the given email already exists.',
        )
      }
      await limitSignUp(ctx)
      const now = ctx.now()
      const sub = randomUUID()
      try {
        await insertUser(ctx.db, {
          sub,
          username: name,
          ...columns,
          status: 'UNCONFIRMED',
          ...passwordColumns(ctx.poolName, name, input.Password),
          created_at: now,
          updated_at: now,
        })
      } catch (error) {
        // Two sign-ups for one name at once: the unique index lets one through.
        if (await findUserByUsername(ctx.db, name)) {
          throw new CognitoError('UsernameExistsException', 'User already exists')
        }
        throw error
      }
      const user = await findUserByUsername(ctx.db, name)
      if (!user) throw new Error('the new user was not stored')
      let delivery: Awaited<ReturnType<typeof sendCode>>
      try {
        delivery = await sendSignUpCode(ctx, user)
      } catch (error) {
        // Over a mail limit: no half-made account stays behind to block the name.
        await ctx.db.deleteFrom('identity_users').where('sub', '=', sub).execute()
        throw error
      }
      return { UserConfirmed: false, UserSub: sub, CodeDeliveryDetails: delivery }
    }),

    ConfirmSignUp: operation(confirmSignUp, async (input) => {
      assertClient(ctx, input.ClientId)
      const user = await findUserByUsername(ctx.db, input.Username)
      if (!user) throw userNotFound()
      if (user.status !== 'UNCONFIRMED') {
        throw notAuthorized(`User cannot be confirmed. Current status is ${user.status}`)
      }
      // The code first: AliasExistsException before it would tell anyone who signs up with an
      // address and confirms with a made-up code that the address is registered.
      await spendCode(ctx, user, 'sign_up', input.ConfirmationCode)
      const release = await claimEmail(ctx, user, input.ForceAliasCreation === true)
      await release()
      await ctx.events.accountConfirmed({
        sub: user.sub,
        username: user.username,
        email: user.email,
      })
      await updateUser(ctx.db, user.sub, { status: 'CONFIRMED', email_verified: 1 }, ctx.now())
      return {}
    }),

    ResendConfirmationCode: operation(resendConfirmationCode, async (input) => {
      assertClient(ctx, input.ClientId)
      const user = await findUserByUsername(ctx.db, input.Username)
      if (!user) {
        if (!ctx.settings.preventUserExistenceErrors) throw userNotFound()
        return { CodeDeliveryDetails: await simulatedDelivery(ctx, input.Username) }
      }
      if (user.status !== 'UNCONFIRMED') throw invalidParameter('User is already confirmed.')
      return { CodeDeliveryDetails: await sendSignUpCode(ctx, user) }
    }),
  }
}
