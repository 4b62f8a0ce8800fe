import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'

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
 * A guest signs in: their identity becomes the login's, as on AWS. A guest who signs in for the
 * first time keeps their identity id (what they stored as a guest stays theirs). When the login
 * already has an identity (a returning user on a new browser), the guest identity is merged
 * into it: the guest id and its credentials are gone, and the login's identity is the answer.
 * Undefined when the identity is not a guest (any more) and is not the login's either.
 */
export async function signInGuest(
  db: Kysely<DB>,
  identityId: string,
  login: string,
  now = Date.now(),
): Promise<PoolIdentity | undefined> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('identity_pool_identities')
      .select('identity_id')
      .where('login', '=', login)
      .executeTakeFirst()
    if (existing) {
      if (existing.identity_id === identityId) return { identityId, login }
      // Guests may write nothing that outlives them (only public/ reads and lists), so the
      // merge moves no objects; it only ends the guest identity.
      const merged = await trx
        .deleteFrom('identity_pool_identities')
        .where('identity_id', '=', identityId)
        .where('login', 'is', null)
        .executeTakeFirst()
      if (Number(merged.numDeletedRows) !== 1) return undefined
      await trx.deleteFrom('identity_credentials').where('identity_id', '=', identityId).execute()
      await trx
        .updateTable('identity_pool_identities')
        .set({ last_used_at: now })
        .where('identity_id', '=', existing.identity_id)
        .execute()
      return { identityId: existing.identity_id, login }
    }
    const result = await trx
      .updateTable('identity_pool_identities')
      .set({ login, last_used_at: now })
      .where('identity_id', '=', identityId)
      .where('login', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1 ? { identityId, login } : undefined
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
