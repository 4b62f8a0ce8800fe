import { createHash } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import type { z } from 'zod'
import { newContentId } from '#db/ids.ts'
import type { DB, ModerationActionKind, ModerationSubjectKind, ReportReason } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import type { CONTENT_KINDS } from '#features/content-kinds.ts'
import type { Publish } from '#features/messages/events.ts'
import { setMessageHidden } from '#features/messages/message-hiding.server.ts'
import { messagesOfMember } from '#features/messages/room-access.server.ts'
import { actingUser, visibleSubject } from '#features/social/subjects.server.ts'
import { revokeAllRefreshTokens } from '#server/identity/tokens/refresh-tokens.ts'
import type { RateLimiter } from '#server/rate-limiter.ts'
import { moderationActionInput } from './moderation-views.ts'
import { moderationNote, REPORT_REASONS, reportInput } from './report-input.ts'
import {
  type HideableKind,
  isHideable,
  type ModerationSubject,
  messagesAround,
  moderationSubject,
} from './subjects.server.ts'

/** Reports one user may file per hour (new ones and updates), counted by the shared limiter. */
export const REPORTS_PER_USER_PER_HOUR = 20
const HOUR_MS = 3600 * 1000

export type ReportLimits = { limiter: RateLimiter; perUserPerHour: number }

const NOT_FOUND: Record<ModerationSubjectKind, string> = {
  message: 'メッセージが見つかりません',
  user: 'ユーザーが見つかりません',
  course: 'コースが見つかりません',
  study: 'スタディが見つかりません',
  lab: 'ラボが見つかりません',
  lab_story: 'ストーリーが見つかりません',
  comment: 'コメントが見つかりません',
}

const limitKey = (userId: string) =>
  `report-user:${createHash('sha256').update(userId).digest('base64url').slice(0, 32)}`

/**
 * The item a reporter names, if they may see it: published content that is not hidden, a
 * comment on such an item, a message of a room they belong to (not one withheld from them), or
 * a user by username. Anything else is "not found", so reporting reveals nothing.
 */
async function reportableSubject(
  db: Kysely<DB>,
  reporter: Actor,
  kind: ModerationSubjectKind,
  id: string,
): Promise<ModerationSubject> {
  let userId = id
  if (kind === 'user') {
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('username', '=', id.toLowerCase())
      .executeTakeFirst()
    if (!user) throw ContentError.notFound(NOT_FOUND.user)
    userId = user.id
  }
  if (kind === 'message') {
    const member = await messagesOfMember(db, reporter.userId)
      .select('dm_messages.id')
      .where('dm_messages.id', '=', id)
      .executeTakeFirst()
    if (!member) throw ContentError.notFound(NOT_FOUND.message)
  }
  const subject = await moderationSubject(db, kind, userId)
  const ownerId = subject?.owner?.id
  const seen =
    subject !== undefined &&
    !subject.deleted &&
    (subject.hidden === null || ownerId === reporter.userId) &&
    (subject.status === null || subject.status === 'published') &&
    (!subject.withheld || ownerId === reporter.userId)
  if (!subject || !seen) throw ContentError.notFound(NOT_FOUND[kind])
  if (kind === 'comment') {
    const parent = await db
      .selectFrom('comments')
      .select(['subject_kind', 'subject_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    const item = await visibleSubject(
      db,
      { kind: parent.subject_kind, id: parent.subject_id },
      reporter,
    )
    await hiddenItemGuard(db, item.kind, item.id, reporter)
  }
  if (ownerId === reporter.userId) {
    throw new ContentError(
      'FORBIDDEN',
      kind === 'user' ? '自分自身は報告できません' : '自分のコンテンツは報告できません',
    )
  }
  return subject
}

/** A hidden content item is "not found" to anyone but its author (and admins). */
async function hiddenItemGuard(
  db: Kysely<DB>,
  kind: keyof typeof CONTENT_KINDS,
  id: string,
  viewer: Actor | undefined,
) {
  const subject = await moderationSubject(db, kind, id)
  if (subject?.hidden && !viewer?.isAdmin && subject.owner?.id !== viewer?.userId) {
    throw ContentError.notFound(NOT_FOUND[kind])
  }
}

/**
 * Files a report (or updates the reporter's open report of the same item: one open report per
 * reporter and item). Counted against the hourly limit once valid; refused for the reporter's
 * own account or content.
 */
export async function fileReport(
  db: Kysely<DB>,
  actor: Actor | undefined,
  input: unknown,
  options: { now: number; limits: ReportLimits; warn?: (details: object, message: string) => void },
): Promise<{ id: string; updated: boolean }> {
  const report = parseInput(reportInput, input)
  const reporter = await actingUser(db, actor)
  const subject = await reportableSubject(db, reporter, report.kind, report.id)
  let count = 0
  try {
    count = await options.limits.limiter.hit(limitKey(reporter.userId), HOUR_MS)
  } catch (error) {
    options.warn?.({ err: error }, 'report limiter unavailable; report not limited')
  }
  if (count > options.limits.perUserPerHour) {
    throw new ContentError(
      'RATE_LIMITED',
      '短い時間に送った報告が多すぎます。しばらく待ってからもう一度お試しください',
    )
  }
  const row = await db
    .insertInto('reports')
    .values({
      id: newContentId(),
      reporter_id: reporter.userId,
      subject_kind: subject.kind,
      subject_id: subject.id,
      subject_user_id: subject.owner?.id ?? null,
      reason: report.reason,
      note: report.note,
      created_at: options.now,
      updated_at: options.now,
    })
    // The partial unique index (open reports) decides between two tabs racing.
    .onConflict((conflict) =>
      conflict
        .columns(['reporter_id', 'subject_kind', 'subject_id'])
        // As the index's predicate reads (a literal: a parameter would not match it).
        .where(sql<boolean>`status = 'open'`)
        .doUpdateSet({ reason: report.reason, note: report.note, updated_at: options.now }),
    )
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow()
  return { id: row.id, updated: Number(row.created_at) !== options.now }
}

/** An admin as moderation records them. */
export type Moderator = Actor & { username: string }

function requireModerator(actor: Moderator | undefined): Moderator {
  if (!actor) throw ContentError.signInRequired()
  if (!actor.isAdmin) throw new ContentError('FORBIDDEN', 'この操作は管理者だけができます')
  return actor
}

export type QueueStatus = 'open' | 'resolved'

export type QueueEntry = {
  kind: ModerationSubjectKind
  id: string
  count: number
  reasons: ReportReason[]
  latestAt: number
  subject: ModerationSubject | undefined
}

const QUEUE_LIMIT = 100

/** Reported items with reports of `status`, newest report first (at most 100). */
export async function listReportQueue(
  db: Kysely<DB>,
  actor: Moderator | undefined,
  status: QueueStatus,
): Promise<QueueEntry[]> {
  requireModerator(actor)
  const groups = await db
    .selectFrom('reports')
    .select((eb) => [
      'subject_kind',
      'subject_id',
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.max('updated_at').as('latest_at'),
    ])
    .where('status', '=', status)
    .groupBy(['subject_kind', 'subject_id'])
    .orderBy('latest_at', 'desc')
    .limit(QUEUE_LIMIT)
    .execute()
  if (groups.length === 0) return []
  const reasons = await db
    .selectFrom('reports')
    .select(['subject_kind', 'subject_id', 'reason'])
    .distinct()
    .where('status', '=', status)
    .where(
      'subject_id',
      'in',
      groups.map((group) => group.subject_id),
    )
    .execute()
  return Promise.all(
    groups.map(async (group) => ({
      kind: group.subject_kind,
      id: group.subject_id,
      count: Number(group.count),
      reasons: reasons
        .filter(
          (row) => row.subject_kind === group.subject_kind && row.subject_id === group.subject_id,
        )
        .map((row) => row.reason)
        .sort(),
      latestAt: Number(group.latest_at),
      subject: await moderationSubject(db, group.subject_kind, group.subject_id),
    })),
  )
}

export type ModerationItem = {
  subject: ModerationSubject | undefined
  context: Awaited<ReturnType<typeof messagesAround>>
  reports: {
    id: string
    reporter: string
    reason: ReportReason
    note: string
    status: 'open' | 'resolved'
    createdAt: number
    updatedAt: number
  }[]
  actions: {
    id: string
    actor: string
    action: ModerationActionKind
    note: string
    createdAt: number
  }[]
}

/** A reported item for the admin: the item in context, its reports and the actions taken. */
export async function readModerationItem(
  db: Kysely<DB>,
  actor: Moderator | undefined,
  kind: ModerationSubjectKind,
  id: string,
): Promise<ModerationItem> {
  requireModerator(actor)
  const [subject, reports, actions] = await Promise.all([
    moderationSubject(db, kind, id),
    db
      .selectFrom('reports')
      .leftJoin('users', 'users.id', 'reports.reporter_id')
      .select([
        'reports.id',
        'reports.reason',
        'reports.note',
        'reports.status',
        'reports.created_at',
        'reports.updated_at',
        'users.username',
      ])
      .where('reports.subject_kind', '=', kind)
      .where('reports.subject_id', '=', id)
      .orderBy('reports.updated_at', 'desc')
      .execute(),
    db
      .selectFrom('moderation_actions')
      .select(['id', 'actor_name', 'action', 'note', 'created_at'])
      .where('subject_kind', '=', kind)
      .where('subject_id', '=', id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute(),
  ])
  if (!subject && reports.length === 0 && actions.length === 0) {
    throw ContentError.notFound(NOT_FOUND[kind])
  }
  return {
    subject,
    context: subject?.room ? await messagesAround(db, subject.room) : [],
    reports: reports.map((row) => ({
      id: row.id,
      reporter: row.username ?? '退会したユーザー',
      reason: row.reason,
      note: row.note,
      status: row.status,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    })),
    actions: actions.map((row) => ({
      id: row.id,
      actor: row.actor_name,
      action: row.action,
      note: row.note,
      createdAt: Number(row.created_at),
    })),
  }
}

/** What an action may need besides the database: the clock, and where its effects go live. */
export type ModerationEffects = {
  now: number
  publish?: Publish | undefined
  /** Closes the users' realtime sockets on every instance (server/realtime `disconnect`). */
  disconnect?: ((userIds: readonly string[]) => void) | undefined
}

/** Logs the action and resolves every open report of the item, in the caller's transaction. */
async function record(
  trx: Kysely<DB>,
  moderator: Moderator,
  subject: { kind: ModerationSubjectKind; id: string },
  action: ModerationActionKind,
  note: string,
  now: number,
) {
  await trx
    .insertInto('moderation_actions')
    .values({
      id: newContentId(),
      subject_kind: subject.kind,
      subject_id: subject.id,
      actor_id: moderator.userId,
      actor_name: moderator.username,
      action,
      note,
      created_at: now,
    })
    .execute()
  await trx
    .updateTable('reports')
    .set({ status: 'resolved', resolved_at: now, updated_at: now })
    .where('subject_kind', '=', subject.kind)
    .where('subject_id', '=', subject.id)
    .where('status', '=', 'open')
    .execute()
}

/** The reason an author is told: the admin's note, or else the reasons reporters gave. */
async function hideReason(trx: Kysely<DB>, kind: HideableKind, id: string, note: string) {
  if (note) return note
  const rows = await trx
    .selectFrom('reports')
    .select('reason')
    .distinct()
    .where('subject_kind', '=', kind)
    .where('subject_id', '=', id)
    .where('status', '=', 'open')
    .execute()
  const labels = rows.map((row) => REPORT_REASONS[row.reason])
  return labels.length > 0 ? labels.join('・') : '利用規約に反する内容'
}

const TABLE_OF: Record<Exclude<HideableKind, 'message'>, keyof DB> = {
  course: 'courses',
  study: 'studies',
  lab: 'labs',
  lab_story: 'lab_stories',
  comment: 'comments',
}

/**
 * Hides an item from everyone but its author (who is told why), or shows it again. The item,
 * the log and the reports change in one transaction; a message's members get its new view after.
 */
export async function setHidden(
  db: Kysely<DB>,
  actor: Moderator | undefined,
  target: { kind: ModerationSubjectKind; id: string },
  hide: boolean,
  noteInput: z.input<typeof moderationNote>,
  effects: ModerationEffects,
): Promise<void> {
  const moderator = requireModerator(actor)
  const note = parseInput(moderationNote, noteInput)
  const { kind, id } = target
  if (!isHideable(kind)) throw new ContentError('VALIDATION_FAILED', 'ユーザーは非表示にできません')
  const announce = await db.transaction().execute(async (trx) => {
    const hidden = hide ? { at: effects.now, reason: await hideReason(trx, kind, id, note) } : null
    let after: ((publish: Publish | undefined) => void) | undefined
    if (kind === 'message') {
      const changed = await setMessageHidden(trx, id, hidden)
      if (!changed) throw ContentError.notFound(NOT_FOUND.message)
      after = changed.publish
    } else {
      const result = await trx
        .updateTable(TABLE_OF[kind] as 'comments')
        .set({ hidden_at: hidden?.at ?? null, hidden_reason: hidden?.reason ?? null })
        .where('id', '=', id)
        .executeTakeFirst()
      if (Number(result.numUpdatedRows) === 0) throw ContentError.notFound(NOT_FOUND[kind])
    }
    await record(trx, moderator, target, hide ? 'hide' : 'unhide', note, effects.now)
    return after
  })
  announce?.(effects.publish)
}

/**
 * Suspends a user, or lifts it. Suspended, the user pool refuses their sign-in ("User is
 * disabled.", as Cognito answers), every session ends (refresh tokens revoked; access and id
 * tokens are refused from then on, since the verifier checks `enabled`), and their open
 * realtime sockets are closed once this commits.
 */
export async function setSuspended(
  db: Kysely<DB>,
  actor: Moderator | undefined,
  userId: string,
  suspend: boolean,
  noteInput: z.input<typeof moderationNote>,
  effects: ModerationEffects,
): Promise<void> {
  const moderator = requireModerator(actor)
  const note = parseInput(moderationNote, noteInput)
  if (suspend && userId === moderator.userId) {
    throw new ContentError('FORBIDDEN', '自分自身は利用停止にできません')
  }
  const { now } = effects
  await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('users')
      .set({ suspended_at: suspend ? now : null })
      .where('id', '=', userId)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) === 0) throw ContentError.notFound(NOT_FOUND.user)
    await trx
      .updateTable('identity_users')
      .set({
        enabled: suspend ? 0 : 1,
        updated_at: now,
        // Tokens carry whole seconds: anything issued before this second is refused.
        ...(suspend && { tokens_valid_after: Math.floor(now / 1000) * 1000 }),
      })
      .where('sub', '=', userId)
      .execute()
    if (suspend) await revokeAllRefreshTokens(trx, userId, now)
    await record(
      trx,
      moderator,
      { kind: 'user', id: userId },
      suspend ? 'suspend' : 'unsuspend',
      note,
      now,
    )
  })
  if (suspend) effects.disconnect?.([userId])
}

/** Closes an item's open reports without acting on the item (logged like any action). */
export async function dismissReports(
  db: Kysely<DB>,
  actor: Moderator | undefined,
  target: { kind: ModerationSubjectKind; id: string },
  noteInput: z.input<typeof moderationNote>,
  effects: { now: number },
): Promise<void> {
  const moderator = requireModerator(actor)
  const note = parseInput(moderationNote, noteInput)
  await db.transaction().execute(async (trx) => {
    await record(trx, moderator, target, 'dismiss', note, effects.now)
  })
}

/**
 * One admin action on a reported item, as the admin pages and /api send it: hide or unhide
 * content, suspend or unsuspend a user, or dismiss the reports.
 */
export async function moderate(
  db: Kysely<DB>,
  actor: Moderator | undefined,
  target: { kind: ModerationSubjectKind; id: string },
  input: z.input<typeof moderationActionInput>,
  effects: ModerationEffects,
): Promise<void> {
  requireModerator(actor)
  const { action, note } = parseInput(moderationActionInput, input)
  switch (action) {
    case 'hide':
    case 'unhide':
      return setHidden(db, actor, target, action === 'hide', note, effects)
    case 'suspend':
    case 'unsuspend':
      if (target.kind !== 'user') {
        throw new ContentError('VALIDATION_FAILED', '利用停止にできるのはユーザーだけです')
      }
      return setSuspended(db, actor, target.id, action === 'suspend', note, effects)
    case 'dismiss':
      return dismissReports(db, actor, target, note, effects)
  }
}

/** The admin behind a session, with the username the log records; undefined for anyone else. */
export async function moderatorOf(
  db: Kysely<DB>,
  actor: Actor | undefined,
): Promise<Moderator | undefined> {
  if (!actor) return undefined
  const user = await db
    .selectFrom('users')
    .select('username')
    .where('id', '=', actor.userId)
    .executeTakeFirst()
  return user && { ...actor, username: user.username }
}
