import { z } from 'zod'
import { invalidParameter } from '#server/identity/cognito-error.ts'
import { attributeChanges, attributeDeletions } from '#server/identity/user-pool/attributes.ts'
import { sendCode, spendCode } from '#server/identity/user-pool/codes.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { userOfAccessToken } from '#server/identity/user-pool/current-user.ts'
import { claimEmail } from '#server/identity/user-pool/email-alias.ts'
import { findUserBySub, type PoolUser, updateUser } from '#server/identity/user-pool/users.ts'
import { attributeName, attributes, clientMetadata, confirmationCode, token } from './schemas.ts'
import { operation } from './types.ts'

const updateUserAttributes = z.object({
  AccessToken: token,
  UserAttributes: attributes.min(1),
  ClientMetadata: clientMetadata,
})

const deleteUserAttributes = z.object({
  AccessToken: token,
  UserAttributeNames: z.array(attributeName).min(1).max(100),
})

const getUserAttributeVerificationCode = z.object({
  AccessToken: token,
  AttributeName: attributeName,
  ClientMetadata: clientMetadata,
})

const verifyUserAttribute = z.object({
  AccessToken: token,
  AttributeName: attributeName,
  Code: confirmationCode,
})

/** Only email can be verified: there is no SMS delivery. */
function assertVerifiable(name: string, user: PoolUser): void {
  if (name !== 'email') throw invalidParameter(`Verification of ${name} is not supported.`)
  if (!user.email) throw invalidParameter('The user has no email address.')
}

/** The signed-in user's attributes, and the verification of a changed email. */
export function attributeOperations(ctx: UserPoolContext) {
  return {
    UpdateUserAttributes: operation(updateUserAttributes, async (input) => {
      const { user } = await userOfAccessToken(ctx, input.AccessToken)
      const { patch, emailChanged } = attributeChanges(user, input.UserAttributes, {
        trusted: false,
      })
      if (Object.keys(patch).length > 0) await updateUser(ctx.db, user.sub, patch, ctx.now())
      if (!emailChanged) return {}
      const updated = await findUserBySub(ctx.db, user.sub)
      if (!updated) return {}
      return { CodeDeliveryDetailsList: [await sendCode(ctx, updated, 'verify_email')] }
    }),

    DeleteUserAttributes: operation(deleteUserAttributes, async (input) => {
      const { user } = await userOfAccessToken(ctx, input.AccessToken)
      const patch = attributeDeletions(user, input.UserAttributeNames)
      if (Object.keys(patch).length > 0) await updateUser(ctx.db, user.sub, patch, ctx.now())
      return {}
    }),

    GetUserAttributeVerificationCode: operation(getUserAttributeVerificationCode, async (input) => {
      const { user } = await userOfAccessToken(ctx, input.AccessToken)
      assertVerifiable(input.AttributeName, user)
      return { CodeDeliveryDetails: await sendCode(ctx, user, 'verify_email') }
    }),

    VerifyUserAttribute: operation(verifyUserAttribute, async (input) => {
      const { user } = await userOfAccessToken(ctx, input.AccessToken)
      assertVerifiable(input.AttributeName, user)
      const release = await claimEmail(ctx, user, false)
      await spendCode(ctx, user, 'verify_email', input.Code)
      await release()
      await updateUser(ctx.db, user.sub, { email_verified: 1 }, ctx.now())
      return {}
    }),
  }
}
