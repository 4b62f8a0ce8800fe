import { AsyncLocalStorage } from 'node:async_hooks'
import type { ExpressionBuilder, Kysely } from 'kysely'
import type { z } from 'zod'
import { newContentId } from '#db/ids.ts'
import type { ContentKind, DB, NotificationKind } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import { CONTENT_KINDS, contentPath } from '#features/content-kinds.ts'
import { afterCursor } from '#features/pagination.server.ts'
import { type Page, pageFrom, pageQuery } from '#features/pagination.ts'
import type { NotificationView } from '#features/social/social-views.ts'
import type { Subject } from './subjects.server.ts'

export type { NotificationView }

/**
 * Whose unread count the work of the current request may have changed: the server runs each
 * request in `collectUnreadChanges` and, once it has answered (so its transaction committed),
 * publishes the new counts to those users' open pages (server/realtime-badge.ts).
 */
const unreadChanges = new AsyncLocalStorage<Set<string>>()

export function collectUnreadChanges(userIds: Set<string>, work: () => void): void {
  unreadChanges.run(userIds, work)
}

function unreadMayChange(userId: string): void {
  unreadChanges.getStore()?.add(userId)
}

/** Something that happened to a user's content or account, caused by someone else. */
export type NewNotification = {
  recipientId: string
  actorId: string
  kind: NotificationKind
  subject?: Subject
  commentId?: string
}

/**
 * Records a notification. Nobody is told about their own doing, so callers need not check.
 * Runs in the caller's transaction, with the action it reports.
 */
export async function notify(
  db: Kysely<DB>,
  notification: NewNotification,
  now = Date.now(),
): Promise<void> {
  if (notification.recipientId === notification.actorId) return
  unreadMayChange(notification.recipientId)
  await db
    .insertInto('notifications')
    .values({
      id: newContentId(),
      recipient_id: notification.recipientId,
      actor_id: notification.actorId,
      kind: notification.kind,
      subject_kind: notification.subject?.kind ?? null,
      subject_id: notification.subject?.id ?? null,
      comment_id: notification.commentId ?? null,
      created_at: now,
      read_at: null,
    })
    .execute()
}

/** For the follows feature: tells `followeeId` that `followerId` follows them. */
export function notifyFollow(
  db: Kysely<DB>,
  follow: { followerId: string; followeeId: string },
  now = Date.now(),
): Promise<void> {
  return notify(
    db,
    { recipientId: follow.followeeId, actorId: follow.followerId, kind: 'follow' },
    now,
  )
}

/** Withdraws an unread notification whose cause was undone (an unlike, an unfollow). */
export async function withdrawNotification(
  db: Kysely<DB>,
  notification: Omit<NewNotification, 'commentId'>,
): Promise<void> {
  unreadMayChange(notification.recipientId)
  let query = db
    .deleteFrom('notifications')
    .where('recipient_id', '=', notification.recipientId)
    .where('actor_id', '=', notification.actorId)
    .where('kind', '=', notification.kind)
    .where('read_at', 'is', null)
  if (notification.subject) {
    query = query
      .where('subject_kind', '=', notification.subject.kind)
      .where('subject_id', '=', notification.subject.id)
  }
  await query.execute()
}

/**
 * Of a recipient's notifications, those that may still be shown: none quotes a comment that
 * moderation hid, nor an item the recipient may no longer see (hidden, or taken back to draft,
 * unless it is theirs). Read at show time, so showing an item again brings its notifications
 * back; the list and the badge's count use the same test.
 */
function stillShown(recipientId: string) {
  return (eb: ExpressionBuilder<DB, 'notifications'>) => {
    const itemShown = (Object.keys(CONTENT_KINDS) as ContentKind[]).map((kind) => {
      // Every publishable table has these columns; typed against one, named by its own name.
      const table = CONTENT_KINDS[kind].table as 'studies'
      return eb.and([
        eb('notifications.subject_kind', '=', kind),
        eb.exists(
          eb
            .selectFrom(table)
            .select(`${table}.id`)
            .whereRef(`${table}.id`, '=', 'notifications.subject_id')
            .where((item) =>
              item.or([
                item.and([
                  item(`${table}.status`, '=', 'published'),
                  item(`${table}.hidden_at`, 'is', null),
                ]),
                item(`${table}.owner_id`, '=', recipientId),
              ]),
            ),
        ),
      ])
    })
    return eb.and([
      eb.or([
        eb('notifications.comment_id', 'is', null),
        eb.exists(
          eb
            .selectFrom('comments')
            .select('comments.id')
            .whereRef('comments.id', '=', 'notifications.comment_id')
            .where('comments.hidden_at', 'is', null),
        ),
      ]),
      eb.or([eb('notifications.subject_kind', 'is', null), ...itemShown]),
    ])
  }
}

/** The signed-in user's notifications, newest first. */
export async function listNotifications(
  db: Kysely<DB>,
  actor: Actor | undefined,
  input: z.input<typeof pageQuery>,
): Promise<Page<NotificationView>> {
  if (!actor) throw ContentError.signInRequired()
  const query = parseInput(pageQuery, input)
  let rows = db
    .selectFrom('notifications')
    .innerJoin('users as actor', 'actor.id', 'notifications.actor_id')
    .selectAll('notifications')
    .select(['actor.username', 'actor.display_name'])
    .where('recipient_id', '=', actor.userId)
    .where(stillShown(actor.userId))
  if (query.cursor) {
    rows = rows.where(afterCursor(query.cursor, 'notifications.created_at', 'notifications.id'))
  }
  const found = await rows
    .orderBy('notifications.created_at', 'desc')
    .orderBy('notifications.id', 'desc')
    .limit(query.limit + 1)
    .execute()
  const page = pageFrom(found, query.limit, (row) => ({ at: row.created_at, id: row.id }))
  const subjects = await subjectsOf(db, page.items, actor.userId)
  const items = page.items.flatMap((row): NotificationView[] => {
    const subject =
      row.subject_kind && row.subject_id
        ? subjects.get(`${row.subject_kind}:${row.subject_id}`)
        : null
    // About an item the recipient may no longer see (taken back to draft): not shown.
    if (subject === undefined) return []
    return [
      {
        id: row.id,
        kind: row.kind,
        actor: { username: row.username, displayName: row.display_name },
        subject,
        commentId: row.comment_id,
        createdAt: row.created_at,
        read: row.read_at !== null,
      },
    ]
  })
  return { items, nextCursor: page.nextCursor }
}

/**
 * Titles and pages of the items a page of notifications is about that the recipient may see
 * (published, or their own), one query per kind.
 */
async function subjectsOf(
  db: Kysely<DB>,
  rows: readonly { subject_kind: ContentKind | null; subject_id: string | null }[],
  recipientId: string,
) {
  const subjects = new Map<string, NonNullable<NotificationView['subject']>>()
  for (const kind of Object.keys(CONTENT_KINDS) as ContentKind[]) {
    const ids = rows.filter((row) => row.subject_kind === kind).map((row) => row.subject_id ?? '')
    if (ids.length === 0) continue
    // Every publishable table has these columns; typed against one, named by its own name
    // (a literal `studies.id` fails on every other table).
    const table = CONTENT_KINDS[kind].table as 'studies'
    const items = await db
      .selectFrom(table)
      .innerJoin('users', 'users.id', `${table}.owner_id`)
      .select([`${table}.id`, `${table}.title`, 'users.username'])
      .where(`${table}.id`, 'in', ids)
      .where((eb) =>
        eb.or([
          eb.and([eb(`${table}.status`, '=', 'published'), eb(`${table}.hidden_at`, 'is', null)]),
          eb(`${table}.owner_id`, '=', recipientId),
        ]),
      )
      .execute()
    for (const item of items) {
      subjects.set(`${kind}:${item.id}`, {
        kind,
        id: item.id,
        title: item.title,
        path: contentPath(kind, item.username, item.id),
      })
    }
  }
  return subjects
}

/** How many notifications the user has not seen yet (the header's badge). */
export async function countUnreadNotifications(db: Kysely<DB>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('recipient_id', '=', userId)
    .where('read_at', 'is', null)
    .where(stillShown(userId))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** The signed-in user's unread count, for /api. */
export async function readUnreadCount(
  db: Kysely<DB>,
  actor: Actor | undefined,
): Promise<{ unread: number }> {
  if (!actor) throw ContentError.signInRequired()
  return { unread: await countUnreadNotifications(db, actor.userId) }
}

/** Marks every notification of the user read (they opened the list). */
export async function markNotificationsRead(
  db: Kysely<DB>,
  actor: Actor | undefined,
  now = Date.now(),
): Promise<{ unread: 0 }> {
  if (!actor) throw ContentError.signInRequired()
  // The user's other tabs clear their bell too.
  unreadMayChange(actor.userId)
  await db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('recipient_id', '=', actor.userId)
    .where('read_at', 'is', null)
    .execute()
  return { unread: 0 }
}
