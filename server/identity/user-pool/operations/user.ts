import { z } from 'zod'
import { attributeList } from '#server/identity/user-pool/attributes.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { userOfAccessToken } from '#server/identity/user-pool/current-user.ts'
import { mfaDescription } from '#server/identity/user-pool/mfa/settings.ts'
import { deleteUser } from '#server/identity/user-pool/users.ts'
import { token } from './schemas.ts'
import { operation } from './types.ts'

const accessTokenOnly = z.object({ AccessToken: token })

/** The signed-in user: GetUser and DeleteUser. */
export function userOperations(ctx: UserPoolContext) {
  return {
    GetUser: operation(accessTokenOnly, async (input) => {
      const { user } = await userOfAccessToken(ctx, input.AccessToken)
      return {
        Username: user.username,
        UserAttributes: attributeList(user),
        ...mfaDescription(user),
      }
    }),

    DeleteUser: operation(accessTokenOnly, async (input) => {
      const { user } = await userOfAccessToken(ctx, input.AccessToken)
      // The product's data first: if that fails, the account is still there to retry with.
      await ctx.events.accountDeleted(user.sub)
      await deleteUser(ctx.db, user.sub)
      ctx.log.info({ sub: user.sub }, 'user pool account deleted')
      return {}
    }),
  }
}
