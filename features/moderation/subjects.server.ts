import type { Kysely } from 'kysely'
import type { ContentKind, DB, ModerationSubjectKind } from '#db/schema.ts'
import { CONTENT_KINDS, contentPath, profilePath } from '#features/content-kinds.ts'
import { plainExcerpt } from '#features/markdown/excerpt.ts'
import { hiddenOf } from '#features/readable-item.server.ts'

/** The kinds moderation can hide (a user is suspended instead). */
export type HideableKind = Exclude<ModerationSubjectKind, 'user'>

export function isHideable(kind: ModerationSubjectKind): kind is HideableKind {
  return kind !== 'user'
}

/** A reported item as moderation sees it: who is answerable for it, what it says, where it is. */
export type ModerationSubject = {
  kind: ModerationSubjectKind
  id: string
  /** The reported user, or the item's author (null: a comment whose author left). */
  owner: { id: string; username: string; displayName: string; suspendedAt: number | null } | null
  title: string
  excerpt: string
  /** The item's page (a message has none: it is shown in context instead). */
  path: string | null
  status: 'draft' | 'published' | null
  hidden: { at: number; reason: string } | null
  deleted: boolean
  /** A message's room and place, for the messages around it. */
  room: { id: string; seq: number } | null
  withheld: boolean
}

const EXCERPT_LENGTH = 200

type Owner = {
  owner_id: string | null
  username: string | null
  display_name: string | null
  suspended_at: number | null
}

function ownerOf(row: Owner): ModerationSubject['owner'] {
  return row.owner_id && row.username
    ? {
        id: row.owner_id,
        username: row.username,
        displayName: row.display_name ?? row.username,
        suspendedAt: row.suspended_at === null ? null : Number(row.suspended_at),
      }
    : null
}

const BODY_COLUMN: Record<ContentKind, 'summary' | 'body' | 'description'> = {
  course: 'summary',
  study: 'body',
  lab: 'description',
  lab_story: 'body',
}

/** A content item of any kind, or undefined. */
async function contentSubject(
  db: Kysely<DB>,
  kind: ContentKind,
  id: string,
): Promise<ModerationSubject | undefined> {
  // Kysely cannot type one query over a union of tables; these columns are shared.
  const table = CONTENT_KINDS[kind].table as 'studies'
  const row = await db
    .selectFrom(table)
    .innerJoin('users', 'users.id', `${table}.owner_id`)
    .select([
      `${table}.owner_id`,
      `${table}.title`,
      `${table}.status`,
      `${table}.hidden_at`,
      `${table}.hidden_reason`,
      `${table}.${BODY_COLUMN[kind] as 'body'} as text`,
      'users.username',
      'users.display_name',
      'users.suspended_at',
    ])
    .where(`${table}.id`, '=', id)
    .executeTakeFirst()
  if (!row) return undefined
  return {
    kind,
    id,
    owner: ownerOf(row),
    title: row.title,
    excerpt: plainExcerpt(row.text, EXCERPT_LENGTH),
    path: contentPath(kind, row.username, id),
    status: row.status,
    hidden: hiddenOf(row),
    deleted: false,
    room: null,
    withheld: false,
  }
}

/**
 * The reported item, as it is now (hidden or not, whoever may see it), or undefined when it
 * no longer exists. A user is found by id.
 */
export async function moderationSubject(
  db: Kysely<DB>,
  kind: ModerationSubjectKind,
  id: string,
): Promise<ModerationSubject | undefined> {
  // Long by design: one branch per reportable kind, each a single query.
  if (kind === 'user') {
    const row = await db
      .selectFrom('users')
      .select(['id as owner_id', 'username', 'display_name', 'suspended_at', 'bio'])
      .where('id', '=', id)
      .executeTakeFirst()
    if (!row) return undefined
    return {
      kind,
      id,
      owner: ownerOf(row),
      title: row.display_name,
      excerpt: plainExcerpt(row.bio, EXCERPT_LENGTH),
      path: profilePath(row.username),
      status: null,
      hidden: null,
      deleted: false,
      room: null,
      withheld: false,
    }
  }
  if (kind === 'comment') {
    const row = await db
      .selectFrom('comments')
      .leftJoin('users', 'users.id', 'comments.author_id')
      .select([
        'comments.author_id as owner_id',
        'comments.subject_kind',
        'comments.subject_id',
        'comments.body',
        'comments.hidden_at',
        'comments.hidden_reason',
        'users.username',
        'users.display_name',
        'users.suspended_at',
      ])
      .where('comments.id', '=', id)
      .executeTakeFirst()
    if (!row) return undefined
    const parent = await contentSubject(db, row.subject_kind, row.subject_id)
    return {
      kind,
      id,
      owner: ownerOf(row),
      title: parent ? `「${parent.title}」へのコメント` : 'コメント',
      excerpt: plainExcerpt(row.body, EXCERPT_LENGTH),
      path: parent?.path ? `${parent.path}#comment-${id}` : null,
      status: null,
      hidden: hiddenOf(row),
      deleted: false,
      room: null,
      withheld: false,
    }
  }
  if (kind === 'message') {
    const row = await db
      .selectFrom('dm_messages')
      .innerJoin('users', 'users.id', 'dm_messages.sender_id')
      .select([
        'dm_messages.sender_id as owner_id',
        'dm_messages.room_id',
        'dm_messages.seq',
        'dm_messages.body',
        'dm_messages.deleted_at',
        'dm_messages.withheld',
        'dm_messages.hidden_at',
        'dm_messages.hidden_reason',
        'users.username',
        'users.display_name',
        'users.suspended_at',
      ])
      .where('dm_messages.id', '=', id)
      .executeTakeFirst()
    if (!row) return undefined
    return {
      kind,
      id,
      owner: ownerOf(row),
      title: 'ダイレクトメッセージ',
      excerpt: row.body,
      path: null,
      status: null,
      hidden: hiddenOf(row),
      deleted: row.deleted_at !== null,
      room: { id: row.room_id, seq: Number(row.seq) },
      withheld: Number(row.withheld) === 1,
    }
  }
  return contentSubject(db, kind, id)
}

/** The messages around a reported one (a few before and after), for the admin's context. */
export async function messagesAround(
  db: Kysely<DB>,
  room: { id: string; seq: number },
  around = 3,
): Promise<{ id: string; sender: string; body: string; createdAt: number; deleted: boolean }[]> {
  const rows = () =>
    db
      .selectFrom('dm_messages')
      .innerJoin('users', 'users.id', 'dm_messages.sender_id')
      .select([
        'dm_messages.id',
        'dm_messages.body',
        'dm_messages.created_at',
        'dm_messages.deleted_at',
        'users.username',
      ])
      .where('dm_messages.room_id', '=', room.id)
  const [before, after] = await Promise.all([
    rows()
      .where('dm_messages.seq', '<', room.seq)
      .orderBy('dm_messages.seq', 'desc')
      .limit(around)
      .execute(),
    rows()
      .where('dm_messages.seq', '>=', room.seq)
      .orderBy('dm_messages.seq')
      .limit(around + 1)
      .execute(),
  ])
  return [...before.reverse(), ...after].map((row) => ({
    id: row.id,
    sender: row.username,
    body: row.deleted_at === null ? row.body : '',
    createdAt: Number(row.created_at),
    deleted: row.deleted_at !== null,
  }))
}
