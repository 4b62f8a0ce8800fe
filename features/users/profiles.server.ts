import type { Kysely } from 'kysely'
import type { z } from 'zod'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import { publishedCount } from '#features/follows/feed.server.ts'
import { followCounts } from '#features/follows/follows.server.ts'
import type { ProfileHeader, PublicProfile } from '#features/users/profile-views.ts'
import { DEFAULT_TIME_ZONE, type ProfileFields, profileFields } from './profile-input.ts'

export type { ProfileHeader, PublicProfile }

function linksOf(stored: string): string[] {
  const parsed: unknown = JSON.parse(stored)
  return Array.isArray(parsed) ? parsed.filter((link) => typeof link === 'string') : []
}

/** Usernames are stored lowercase; URLs may arrive in any case. */
async function profileRow(db: Kysely<DB>, username: string) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'display_name', 'bio', 'avatar_key', 'links', 'created_at'])
    .where('username', '=', username.toLowerCase())
    .executeTakeFirst()
}

function publicProfileOf(row: NonNullable<Awaited<ReturnType<typeof profileRow>>>): PublicProfile {
  return {
    username: row.username,
    displayName: row.display_name,
    bio: row.bio,
    avatarKey: row.avatar_key,
    links: linksOf(row.links),
    joinedAt: row.created_at,
  }
}

export async function findProfile(
  db: Kysely<DB>,
  username: string,
): Promise<PublicProfile | undefined> {
  const row = await profileRow(db, username)
  return row && publicProfileOf(row)
}

/** The profile with its follower, following and published counts; 404 for unknown users. */
export async function readProfileHeader(db: Kysely<DB>, username: string): Promise<ProfileHeader> {
  const row = await profileRow(db, username)
  if (!row) throw ContentError.notFound('ユーザーが見つかりません')
  const [follows, published] = await Promise.all([
    followCounts(db, row.id),
    publishedCount(db, row.id),
  ])
  return { ...publicProfileOf(row), counts: { ...follows, published } }
}

/** The signed-in user's own editable profile fields, as /settings shows them. */
export async function readOwnProfile(
  db: Kysely<DB>,
  actor: Actor | undefined,
): Promise<ProfileFields> {
  if (!actor) throw ContentError.signInRequired()
  const row = await db
    .selectFrom('users')
    .select(['display_name', 'bio', 'links', 'time_zone'])
    .where('id', '=', actor.userId)
    .executeTakeFirst()
  if (!row) throw ContentError.notFound('プロフィールが見つかりません')
  return {
    displayName: row.display_name,
    bio: row.bio,
    links: linksOf(row.links),
    timeZone: row.time_zone || DEFAULT_TIME_ZONE,
  }
}

/** Saves the signed-in user's display name, bio, links and time zone. */
export async function updateOwnProfile(
  db: Kysely<DB>,
  actor: Actor | undefined,
  input: z.input<typeof profileFields>,
  now = Date.now(),
): Promise<ProfileFields> {
  if (!actor) throw ContentError.signInRequired()
  const fields = parseInput(profileFields, input)
  const updated = await db
    .updateTable('users')
    .set({
      display_name: fields.displayName,
      bio: fields.bio,
      links: JSON.stringify(fields.links),
      time_zone: fields.timeZone,
      updated_at: now,
    })
    .where('id', '=', actor.userId)
    .executeTakeFirst()
  if (Number(updated.numUpdatedRows) === 0) {
    throw ContentError.notFound('プロフィールが見つかりません')
  }
  return fields
}

/** The id of the user with this username (any case); 404 when there is none. */
export async function userIdOf(db: Kysely<DB>, username: string): Promise<string> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username.toLowerCase())
    .executeTakeFirst()
  if (!row) throw ContentError.notFound('ユーザーが見つかりません')
  return row.id
}
