import { type Kysely, sql } from 'kysely'
import type { DB } from '#db/schema.ts'
import { enqueue } from '#server/mail/outbox.ts'
import { messagesOfMember } from './room-access.server.ts'
import { unreadFromOthers } from './unread.server.ts'

/** How often a user may get a digest, and how old an unread message must be to go in one. */
export type DigestSchedule = {
  /** At most one digest per user per period. */
  periodMs: number
  /** Messages younger than this are left out: the reader may still see them live. */
  quietMs: number
  /** Users considered per run, so one run stays short whatever the number of users. */
  batchSize: number
}

export const DEFAULT_DIGEST_SCHEDULE: DigestSchedule = {
  periodMs: 60 * 60 * 1000,
  quietMs: 15 * 60 * 1000,
  batchSize: 100,
}

/**
 * One run of the e-mail digest of unread direct messages: for each user who turned it on and
 * whose period has passed, one mail listing the rooms with messages they have not read (nor been
 * told of before), written to the outbox. Safe with several instances running it at once: each
 * user is claimed by a conditional update of `dm_digest_at` in the transaction that writes the
 * mail, so two instances never both mail the same user for the same period. Answers the outbox
 * ids to deliver once committed.
 */
export async function runMessageDigest(
  db: Kysely<DB>,
  options: { now: number; siteUrl: string; siteTitle: string; schedule?: DigestSchedule },
): Promise<string[]> {
  const schedule = options.schedule ?? DEFAULT_DIGEST_SCHEDULE
  const due = options.now - schedule.periodMs
  const candidates = await db
    .selectFrom('users')
    .select('id')
    .where('dm_digest', '=', 1)
    .where((eb) => eb.or([eb('dm_digest_at', 'is', null), eb('dm_digest_at', '<=', due)]))
    .orderBy('id')
    .limit(schedule.batchSize)
    .execute()
  const mailIds: string[] = []
  for (const { id } of candidates) {
    const mailId = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('users')
        .set({ dm_digest_at: options.now })
        .where('id', '=', id)
        .where('dm_digest', '=', 1)
        .where((eb) => eb.or([eb('dm_digest_at', 'is', null), eb('dm_digest_at', '<=', due)]))
        .executeTakeFirst()
      if (Number(claimed.numUpdatedRows) === 0) return undefined
      return digestFor(trx, id, options, options.now - schedule.quietMs)
    })
    if (mailId) mailIds.push(mailId)
  }
  return mailIds
}

/** Writes one user's digest to the outbox (none when nothing is new) and moves their markers. */
async function digestFor(
  trx: Kysely<DB>,
  userId: string,
  options: { now: number; siteUrl: string; siteTitle: string },
  before: number,
): Promise<string | undefined> {
  const recipient = await trx
    .selectFrom('identity_users')
    .select('email')
    .where('sub', '=', userId)
    .where('email_verified', '=', 1)
    .executeTakeFirst()
  if (!recipient?.email) return undefined
  const rooms = await messagesOfMember(trx, userId)
    .where(unreadFromOthers(userId))
    .innerJoin('users', 'users.id', 'dm_messages.sender_id')
    .select((eb) => [
      'dm_messages.room_id',
      'users.display_name',
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.max('dm_messages.seq').as('last_seq'),
    ])
    .where('dm_members.muted', '=', 0)
    .where('dm_messages.created_at', '<=', before)
    .whereRef('dm_messages.seq', '>', 'dm_members.digested_seq')
    .groupBy(['dm_messages.room_id', 'users.display_name'])
    .orderBy('dm_messages.room_id')
    .limit(50)
    .execute()
  if (rooms.length === 0) return undefined
  for (const room of rooms) {
    await trx
      .updateTable('dm_members')
      .set({ digested_seq: sql`${Number(room.last_seq)}` })
      .where('room_id', '=', room.room_id)
      .where('user_id', '=', userId)
      .execute()
  }
  const total = rooms.reduce((sum, room) => sum + Number(room.count), 0)
  const lines = rooms.map(
    (room) =>
      `・${room.display_name}（${Number(room.count)} 件）: ${options.siteUrl}/dms/${room.room_id}`,
  )
  return enqueue(
    trx,
    {
      to: recipient.email,
      subject: `【${options.siteTitle}】未読のメッセージが ${total} 件あります`,
      text: [
        '読んでいないダイレクトメッセージがあります。',
        '',
        ...lines,
        '',
        `メッセージ一覧: ${options.siteUrl}/dms`,
        `このお知らせは設定ページで止められます: ${options.siteUrl}/settings`,
      ].join('\n'),
    },
    options.now,
  )
}
