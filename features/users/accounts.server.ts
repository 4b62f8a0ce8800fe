import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { deleteSocialOfOwner } from '#features/social/subject-cleanup.server.ts'

import { USERNAME_PATTERN } from './account-input.ts'

/**
 * First path segments the site itself uses, or may use, so no user can own them:
 * every top-level route and reserved service prefix, and a few words users would mistake.
 */
export const RESERVED_USERNAMES = new Set([
  'about',
  'admin',
  'api',
  'assets',
  'auth',
  'cognito-identity',
  'cognito-idp',
  'contact',
  'courses',
  'dev',
  'dms',
  'drafts',
  'example',
  'exercises',
  'favicon.ico',
  'healthz',
  'help',
  'histories',
  'labs',
  'labs_stories',
  'login',
  'logout',
  'me',
  'notifications',
  'oauth2',
  'plans',
  'privacy',
  'readyz',
  'realtime',
  'robots.txt',
  's3',
  'search',
  'settings',
  'signin',
  'signup',
  'studies',
  'support',
  'system',
  'tags',
  'terms',
  'users',
])

/** Why a username cannot be registered, in Japanese; undefined when it can. */
export async function usernameRefusal(
  db: Kysely<DB>,
  username: string,
): Promise<string | undefined> {
  if (!USERNAME_PATTERN.test(username)) {
    return 'ユーザー名は半角の英小文字・数字・アンダースコア（_）で、3〜20文字にしてください'
  }
  if (RESERVED_USERNAMES.has(username)) return 'このユーザー名は使えません'
  const taken = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirst()
  return taken ? 'このユーザー名はすでに使われています' : undefined
}

/** Creates the public profile of a newly confirmed account; repeating it changes nothing. */
export async function createProfileForAccount(
  db: Kysely<DB>,
  account: { sub: string; username: string },
  now = Date.now(),
): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: account.sub,
      username: account.username,
      display_name: account.username,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute()
}

/**
 * Removes the profile, and with it (by foreign keys) everything the user owned and their
 * likes; their comments stay as 退会したユーザー's (decision 017). Likes and comments on the
 * user's own content name it by kind and id, so they are deleted first.
 */
export async function deleteProfile(db: Kysely<DB>, sub: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await deleteSocialOfOwner(trx, sub)
    await trx.deleteFrom('users').where('id', '=', sub).execute()
  })
}
