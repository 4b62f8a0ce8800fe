import { notAuthorized } from '#server/identity/cognito-error.ts'
import { attributeChanges } from '#server/identity/user-pool/attributes.ts'
import { afterPassword } from '#server/identity/user-pool/auth/after-password.ts'
import { required } from '#server/identity/user-pool/auth/outcome.ts'
import { invalidSession } from '#server/identity/user-pool/auth-sessions.ts'
import { assertPasswordPolicy, passwordColumns } from '#server/identity/user-pool/passwords.ts'
import { findUserBySub, updateUser } from '#server/identity/user-pool/users.ts'
import type { ChallengeHandler } from './types.ts'

const ATTRIBUTE_PREFIX = 'userAttributes.'

/**
 * NEW_PASSWORD_REQUIRED: a user created by an administrator replaces the temporary password
 * (and may fill in attributes, sent as `userAttributes.{name}`).
 */
export const newPasswordRequired: ChallengeHandler = {
  precheck(responses) {
    const { NEW_PASSWORD } = required(responses, 'NEW_PASSWORD')
    assertPasswordPolicy(NEW_PASSWORD as string)
  },
  async respond(ctx, step) {
    const { NEW_PASSWORD } = required(step.responses, 'NEW_PASSWORD') as { NEW_PASSWORD: string }
    const user = step.sub ? await findUserBySub(ctx.db, step.sub) : undefined
    if (!user) throw notAuthorized()
    if (user.status !== 'FORCE_CHANGE_PASSWORD') throw invalidSession()
    const attributes = Object.entries(step.responses ?? {})
      .filter(([name]) => name.startsWith(ATTRIBUTE_PREFIX))
      .map(([name, value]) => ({ Name: name.slice(ATTRIBUTE_PREFIX.length), Value: value }))
    const { patch } = attributeChanges(user, attributes, { trusted: false })
    await updateUser(
      ctx.db,
      user.sub,
      {
        ...patch,
        ...passwordColumns(ctx.poolName, user.username, NEW_PASSWORD),
        status: 'CONFIRMED',
        temporary_password_expires_at: null,
      },
      ctx.now(),
    )
    const updated = await findUserBySub(ctx.db, user.sub)
    if (!updated) throw notAuthorized()
    return afterPassword(ctx, updated, (step.state as { deviceKey?: string }).deviceKey)
  },
}
