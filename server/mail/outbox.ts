import { randomBytes } from 'node:crypto'
import { type Kysely, type Selectable, sql } from 'kysely'
import type { DB, MailOutboxTable } from '#db/schema.ts'
import type { MailMessage } from './mailer.ts'

export type OutboxMessage = MailMessage & {
  id: string
  createdAt: number
  sentAt: number | null
  /** Delivery attempts started so far (0 while SMTP is not configured). */
  attempts: number
  /** Why the last attempt failed, with secrets removed; null once sent or never tried. */
  lastError: string | null
}

/** Writes a message to the outbox; delivery (if any) happens afterwards. */
export async function enqueue(
  db: Kysely<DB>,
  message: MailMessage,
  now = Date.now(),
): Promise<string> {
  const id = timeOrderedId(now)
  await db
    .insertInto('mail_outbox')
    .values({
      id,
      to_address: message.to,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html ?? null,
      created_at: now,
    })
    .execute()
  return id
}

/**
 * The newest messages first, optionally only those to one address (the dev mailbox, tests).
 * The address matches without regard to ASCII case, as mail systems treat it.
 */
export async function listOutbox(
  db: Kysely<DB>,
  options: { to?: string; limit?: number } = {},
): Promise<OutboxMessage[]> {
  let query = db.selectFrom('mail_outbox').selectAll()
  if (options.to) query = query.where(sql`lower(to_address)`, '=', options.to.toLowerCase())
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit ?? 100)
    .execute()
  return rows.map(toMessage)
}

/** These messages, as written (a caller that enqueued them in its transaction, after the commit). */
export async function findOutboxMessages(
  db: Kysely<DB>,
  ids: readonly string[],
): Promise<OutboxMessage[]> {
  if (ids.length === 0) return []
  const rows = await db.selectFrom('mail_outbox').selectAll().where('id', 'in', ids).execute()
  return rows.map(toMessage)
}

export type RetrySchedule = {
  /** The delay before the first retry; each later one waits twice as long as the one before. */
  baseDelayMs: number
  /** Attempts in all, the first included; after that a message is left as it is. */
  maxAttempts: number
  /** Older messages are not retried: the codes they carry have expired by then. */
  maxAgeMs: number
}

/**
 * Unsent messages whose next attempt is due, oldest first. After k attempts the next is due
 * `baseDelayMs × (2^k − 1)` after the message was written (so the gaps double: 1, 2, 4… base
 * delays). A message not tried at all is due one base delay after it was written: until
 * then the attempt started when it was sent is still expected to claim it.
 */
export async function dueForDelivery(
  db: Kysely<DB>,
  schedule: RetrySchedule,
  now = Date.now(),
  limit = 50,
): Promise<OutboxMessage[]> {
  const rows = await db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('sent_at', 'is', null)
    .where('created_at', '>=', now - schedule.maxAgeMs)
    .where((eb) =>
      eb.or(
        Array.from({ length: schedule.maxAttempts }, (_, attempts) =>
          eb.and([
            eb('attempts', '=', attempts),
            eb('created_at', '<=', now - schedule.baseDelayMs * Math.max(1, 2 ** attempts - 1)),
          ]),
        ),
      ),
    )
    .orderBy('created_at', 'asc')
    .limit(limit)
    .execute()
  return rows.map(toMessage)
}

/**
 * Takes the next attempt of an unsent message: counts it, but only if nobody else (another
 * process, or the retry loop) took it since `attempts` was read. True when this caller owns it.
 */
export async function claimAttempt(db: Kysely<DB>, id: string, attempts: number): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ attempts: attempts + 1 })
    .where('id', '=', id)
    .where('attempts', '=', attempts)
    .where('sent_at', 'is', null)
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}

export async function markSent(db: Kysely<DB>, id: string, now = Date.now()): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ sent_at: now, last_error: null })
    .where('id', '=', id)
    .execute()
}

export async function markFailed(db: Kysely<DB>, id: string, error: string): Promise<void> {
  await db.updateTable('mail_outbox').set({ last_error: error }).where('id', '=', id).execute()
}

function toMessage(row: Selectable<MailOutboxTable>): OutboxMessage {
  return {
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    ...(row.html_body !== null && { html: row.html_body }),
    createdAt: row.created_at,
    sentAt: row.sent_at,
    attempts: row.attempts,
    lastError: row.last_error,
  }
}

let lastMs = 0
let sequence = 0

/**
 * A UUIDv7: the time in milliseconds, then a counter, then randomness, so that ids made by
 * this process sort in the order they were made, even within one millisecond (the mailbox
 * lists a code sent twice in a row newest first).
 */
export function timeOrderedId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now
    sequence = 0
  } else if (++sequence > 0xfff) {
    lastMs++
    sequence = 0
  }
  const bytes = randomBytes(16)
  bytes.writeUIntBE(lastMs, 0, 6)
  bytes.writeUInt16BE(0x7000 | sequence, 6)
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f)
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
