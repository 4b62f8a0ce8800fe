import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { DB } from '../../../db/schema.ts'

export type PoolIdentity = { identityId: string; login: string | null }

/** Our user pool as a login provider, in the AWS form that keys identities' logins. */
export function userPoolProvider(settings: { region: string; userPoolId: string }): string {
  return `cognito-idp.${settings.region}.amazonaws.com/${settings.userPoolId}`
}

/** The user-pool `sub` an identity is signed in as, or undefined for guests and others. */
export async function userPoolSubOf(
  db: Kysely<DB>,
  settings: { region: string; userPoolId: string },
  identityId: string,
): Promise<string | undefined> {
  const login = (await findIdentity(db, identityId))?.login
  const prefix = `${userPoolProvider(settings)}|`
  return login?.startsWith(prefix) ? login.slice(prefix.length) : undefined
}

/** A new identity id in the identity pool's shape: `{region}:{uuid}`. */
function newIdentityId(region: string): string {
  return `${region}:${randomUUID()}`
}

export async function findIdentity(
  db: Kysely<DB>,
  identityId: string,
): Promise<PoolIdentity | undefined> {
  const row = await db
    .selectFrom('identity_pool_identities')
    .select(['identity_id', 'login'])
    .where('identity_id', '=', identityId)
    .executeTakeFirst()
  return row && { identityId: row.identity_id, login: row.login }
}

export async function createGuestIdentity(
  db: Kysely<DB>,
  region: string,
  now = Date.now(),
): Promise<PoolIdentity> {
  const identityId = newIdentityId(region)
  await db
    .insertInto('identity_pool_identities')
    .values({ identity_id: identityId, login: null, created_at: now, last_used_at: now })
    .execute()
  return { identityId, login: null }
}

/** The identity of a login (`{provider}|{sub}`), created on first use; one per login, always. */
export async function identityForLogin(
  db: Kysely<DB>,
  region: string,
  login: string,
  now = Date.now(),
): Promise<PoolIdentity> {
  await db
    .insertInto('identity_pool_identities')
    .values({ identity_id: newIdentityId(region), login, created_at: now, last_used_at: now })
    .onConflict((conflict) => conflict.column('login').doNothing())
    .execute()
  const row = await db
    .selectFrom('identity_pool_identities')
    .select(['identity_id', 'login'])
    .where('login', '=', login)
    .executeTakeFirstOrThrow()
  return { identityId: row.identity_id, login: row.login }
}

/**
 * Links a guest identity to a login when the guest signs in, so what they stored as a guest
 * stays theirs. Returns false if the identity is not a guest or the login already has one.
 */
export async function linkGuestToLogin(
  db: Kysely<DB>,
  identityId: string,
  login: string,
  now = Date.now(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const taken = await trx
      .selectFrom('identity_pool_identities')
      .select('identity_id')
      .where('login', '=', login)
      .executeTakeFirst()
    if (taken) return false
    const result = await trx
      .updateTable('identity_pool_identities')
      .set({ login, last_used_at: now })
      .where('identity_id', '=', identityId)
      .where('login', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  })
}

export async function touchIdentity(
  db: Kysely<DB>,
  identityId: string,
  now = Date.now(),
): Promise<void> {
  await db
    .updateTable('identity_pool_identities')
    .set({ last_used_at: now })
    .where('identity_id', '=', identityId)
    .execute()
}
