import { randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { CognitoError, invalidParameter, notAuthorized } from '#server/identity/cognito-error.ts'
import { attributeList, newUserAttributes } from '#server/identity/user-pool/attributes.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { userOfAccessToken } from '#server/identity/user-pool/current-user.ts'
import { invitationMessage } from '#server/identity/user-pool/messages.ts'
import {
  assertPasswordPolicy,
  passwordColumns,
  temporaryPassword,
} from '#server/identity/user-pool/passwords.ts'
import {
  findUserBySub,
  findUserByUsername,
  findUserByVerifiedEmail,
  groupsOf,
  insertUser,
  normalizeUsername,
  type PoolUser,
  updateUser,
} from '#server/identity/user-pool/users.ts'
import { attributes, clientMetadata, password, username } from './schemas.ts'
import { operation } from './types.ts'

export const TEMPORARY_PASSWORD_DAYS = 7
const DAY_MS = 24 * 3600 * 1000

export const adminCreateUserInput = z.object({
  UserPoolId: z.string().min(1).max(55),
  Username: username,
  UserAttributes: attributes.optional(),
  ValidationData: attributes.optional(),
  TemporaryPassword: password.optional(),
  ForceAliasCreation: z.boolean().optional(),
  MessageAction: z.enum(['RESEND', 'SUPPRESS']).optional(),
  DesiredDeliveryMediums: z
    .array(z.enum(['SMS', 'EMAIL']))
    .max(2)
    .optional(),
  ClientMetadata: clientMetadata,
})

export type AdminCreateUserInput = z.infer<typeof adminCreateUserInput>

/**
 * AdminCreateUser: an account with a temporary password (status FORCE_CHANGE_PASSWORD) that
 * the user replaces at first sign-in (NEW_PASSWORD_REQUIRED). The invitation with the
 * temporary password is emailed unless MessageAction is SUPPRESS. The profile is created at
 * once. This function trusts its caller; over HTTP only administrators reach it.
 */
export async function adminCreateUser(ctx: UserPoolContext, input: AdminCreateUserInput) {
  if (input.UserPoolId !== ctx.settings.userPoolId) {
    throw new CognitoError('ResourceNotFoundException', 'User pool does not exist.')
  }
  const existing = await findUserByUsername(ctx.db, input.Username)
  if (input.MessageAction === 'RESEND') {
    if (!existing) throw new CognitoError('UserNotFoundException', 'User does not exist.')
    if (existing.status !== 'FORCE_CHANGE_PASSWORD') {
      throw new CognitoError(
        'UnsupportedUserStateException',
        'User is not in FORCE_CHANGE_PASSWORD state.',
      )
    }
    const password = await setTemporaryPassword(ctx, existing, input.TemporaryPassword)
    await invite(ctx, existing, password)
    return { User: describe(await reload(ctx, existing.sub)) }
  }
  if (existing) throw new CognitoError('UsernameExistsException', 'User account already exists')
  const refusal = await ctx.events.usernameRefusal(input.Username)
  if (refusal) throw invalidParameter(refusal)
  if (input.TemporaryPassword) assertPasswordPolicy(input.TemporaryPassword)
  const columns = newUserAttributes(input.UserAttributes ?? [], { trusted: true })
  if (columns.email_verified === 1 && columns.email) {
    const holder = await findUserByVerifiedEmail(ctx.db, columns.email)
    if (holder && !input.ForceAliasCreation) {
      throw new CognitoError('AliasExistsException', 'An account with the email already exists.')
    }
    if (holder) await updateUser(ctx.db, holder.sub, { email_verified: 0 }, ctx.now())
  }
  const name = normalizeUsername(input.Username)
  const password = input.TemporaryPassword ?? temporaryPassword()
  const now = ctx.now()
  const sub = randomUUID()
  await insertUser(ctx.db, {
    sub,
    username: name,
    ...columns,
    status: 'FORCE_CHANGE_PASSWORD',
    ...passwordColumns(ctx.poolName, name, password),
    temporary_password_expires_at: now + TEMPORARY_PASSWORD_DAYS * DAY_MS,
    created_at: now,
    updated_at: now,
  })
  await ctx.events.accountConfirmed({ sub, username: name, email: columns.email })
  const user = await reload(ctx, sub)
  if (input.MessageAction !== 'SUPPRESS') await invite(ctx, user, password)
  ctx.log.info({ sub }, 'user pool account created by an administrator')
  return { User: describe(user) }
}

/** Over HTTP the caller must present the access token of a member of the `admin` group. */
async function assertAdministrator(ctx: UserPoolContext, request: FastifyRequest): Promise<void> {
  const header = request.headers.authorization ?? ''
  const match = /^Bearer ([A-Za-z0-9_.=-]{1,16384})$/.exec(header)
  if (!match?.[1]) {
    throw notAuthorized(
      "AdminCreateUser requires an administrator's access token (Authorization: Bearer).",
    )
  }
  const { user } = await userOfAccessToken(ctx, match[1])
  if (!(await groupsOf(ctx.db, user, ctx.settings.admins)).includes('admin')) {
    throw notAuthorized('Only members of the admin group may call AdminCreateUser.')
  }
}

export function adminOperations(ctx: UserPoolContext) {
  return {
    AdminCreateUser: operation(adminCreateUserInput, async (input, request) => {
      await assertAdministrator(ctx, request)
      return adminCreateUser(ctx, input)
    }),
  }
}

async function setTemporaryPassword(ctx: UserPoolContext, user: PoolUser, given?: string) {
  if (given) assertPasswordPolicy(given)
  const password = given ?? temporaryPassword()
  const now = ctx.now()
  await updateUser(
    ctx.db,
    user.sub,
    {
      ...passwordColumns(ctx.poolName, user.username, password),
      temporary_password_expires_at: now + TEMPORARY_PASSWORD_DAYS * DAY_MS,
    },
    now,
  )
  return password
}

async function invite(ctx: UserPoolContext, user: PoolUser, password: string): Promise<void> {
  if (!user.email) return
  await ctx.mailer.send(
    invitationMessage(user.email, user.username, password, TEMPORARY_PASSWORD_DAYS),
  )
}

async function reload(ctx: UserPoolContext, sub: string): Promise<PoolUser> {
  const user = await findUserBySub(ctx.db, sub)
  if (!user) throw new Error('the user was not stored')
  return user
}

function describe(user: PoolUser) {
  return {
    Username: user.username,
    Attributes: attributeList(user),
    UserCreateDate: user.created_at / 1000,
    UserLastModifiedDate: user.updated_at / 1000,
    Enabled: user.enabled === 1,
    UserStatus: user.status,
  }
}
