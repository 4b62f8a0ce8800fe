import type { Kysely } from 'kysely'
import type { DB } from '../../db/schema.ts'

export type PublicProfile = {
  username: string
  displayName: string
  bio: string
  /** A public object key in the site's bucket, or null for the initial-letter avatar. */
  avatarKey: string | null
  joinedAt: number
}

/** Usernames are stored lowercase; URLs may arrive in any case. */
export async function findProfile(
  db: Kysely<DB>,
  username: string,
): Promise<PublicProfile | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['username', 'display_name', 'bio', 'avatar_key', 'created_at'])
    .where('username', '=', username.toLowerCase())
    .executeTakeFirst()
  return (
    row && {
      username: row.username,
      displayName: row.display_name,
      bio: row.bio,
      avatarKey: row.avatar_key,
      joinedAt: row.created_at,
    }
  )
}
