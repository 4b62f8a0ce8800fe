import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { LinkedIdentity } from '#server/identity/tokens/issue.ts'

/**
 * External identities that sign in as an account (identity_user_links): Google's subject
 * for a user who signed in with Google, whether the account began there or was linked to it
 * through a verified email. Cognito's id tokens list them in `identities`.
 */
export async function findLinkedSub(
  db: Kysely<DB>,
  providerName: string,
  providerUserId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('identity_user_links')
    .select('sub')
    .where('provider_name', '=', providerName)
    .where('provider_user_id', '=', providerUserId)
    .executeTakeFirst()
  return row?.sub
}

export async function linkIdentity(
  db: Kysely<DB>,
  values: { providerName: string; providerUserId: string; sub: string; now: number },
): Promise<void> {
  await db
    .insertInto('identity_user_links')
    .values({
      provider_name: values.providerName,
      provider_user_id: values.providerUserId,
      sub: values.sub,
      created_at: values.now,
    })
    .onConflict((conflict) => conflict.doNothing())
    .execute()
}

export async function identitiesOf(db: Kysely<DB>, sub: string): Promise<LinkedIdentity[]> {
  const rows = await db
    .selectFrom('identity_user_links')
    .select(['provider_name', 'provider_user_id', 'created_at'])
    .where('sub', '=', sub)
    .orderBy('created_at')
    .execute()
  return rows.map((row) => ({
    providerName: row.provider_name,
    userId: row.provider_user_id,
    dateCreated: Number(row.created_at),
  }))
}
