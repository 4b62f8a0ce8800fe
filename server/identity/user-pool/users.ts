import type { Insertable, Kysely, Selectable, Updateable } from 'kysely'
import type { DB, IdentityUsersTable } from '#db/schema.ts'
import { CognitoError } from '#server/identity/cognito-error.ts'

/** The user pool's accounts (identity_users). Emails are kept trimmed and lowercase. */
export type PoolUser = Selectable<IdentityUsersTable>
export type PoolUserPatch = Omit<Updateable<IdentityUsersTable>, 'sub' | 'created_at'>

export const normalizeEmail = (email: string) => email.trim().toLowerCase()

/** Usernames are case-insensitive for sign-in; the registered form is lowercase. */
export const normalizeUsername = (username: string) => username.trim().toLowerCase()

/**
 * Sign-in with a name that has no account: with PreventUserExistenceErrors (the default) the
 * flow goes on to Cognito's "Incorrect username or password."; without it (LEGACY) Cognito
 * says so at once.
 */
export function assertUserExistenceErrorsPrevented(ctx: {
  settings: { preventUserExistenceErrors: boolean }
}): void {
  if (!ctx.settings.preventUserExistenceErrors) {
    throw new CognitoError('UserNotFoundException', 'User does not exist.')
  }
}

export async function findUserBySub(db: Kysely<DB>, sub: string): Promise<PoolUser | undefined> {
  return db.selectFrom('identity_users').selectAll().where('sub', '=', sub).executeTakeFirst()
}

export async function findUserByUsername(
  db: Kysely<DB>,
  username: string,
): Promise<PoolUser | undefined> {
  return db
    .selectFrom('identity_users')
    .selectAll()
    .where('username', '=', normalizeUsername(username))
    .executeTakeFirst()
}

/** The account whose verified email this is, if any. */
export async function findUserByVerifiedEmail(
  db: Kysely<DB>,
  email: string,
): Promise<PoolUser | undefined> {
  return db
    .selectFrom('identity_users')
    .selectAll()
    .where('email', '=', normalizeEmail(email))
    .where('email_verified', '=', 1)
    .executeTakeFirst()
}

/**
 * The account a sign-in name refers to: a username, or else an email address used as an
 * alias, which counts only once verified.
 */
export async function findUserBySignInName(
  db: Kysely<DB>,
  name: string,
): Promise<PoolUser | undefined> {
  const byUsername = await findUserByUsername(db, name)
  if (byUsername) return byUsername
  return name.includes('@') ? findUserByVerifiedEmail(db, name) : undefined
}

export async function insertUser(
  db: Kysely<DB>,
  values: Insertable<IdentityUsersTable>,
): Promise<void> {
  await db.insertInto('identity_users').values(values).execute()
}

export async function updateUser(
  db: Kysely<DB>,
  sub: string,
  patch: PoolUserPatch,
  now: number,
): Promise<void> {
  await db
    .updateTable('identity_users')
    .set({ ...patch, updated_at: now })
    .where('sub', '=', sub)
    .execute()
}

export async function deleteUser(db: Kysely<DB>, sub: string): Promise<void> {
  await db.deleteFrom('identity_users').where('sub', '=', sub).execute()
}

/**
 * The user's groups: those stored for them, plus `admin` when configuration names their
 * username or their verified email.
 */
export async function groupsOf(
  db: Kysely<DB>,
  user: PoolUser,
  admins: readonly string[],
): Promise<string[]> {
  const rows = await db
    .selectFrom('identity_user_groups')
    .select('group_name')
    .where('sub', '=', user.sub)
    .orderBy('group_name')
    .execute()
  const groups = rows.map((row) => row.group_name)
  const named =
    admins.includes(user.username) ||
    (user.email !== null && user.email_verified === 1 && admins.includes(user.email))
  if (named && !groups.includes('admin')) groups.unshift('admin')
  return groups
}
