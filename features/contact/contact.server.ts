import { createHash } from 'node:crypto'
import { type Kysely, PostgresAdapter, type Selectable, sql, type Transaction } from 'kysely'
import type { ContactMessagesTable, ContactStatus, DB } from '#db/schema.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import type { MailMessage } from '#server/mail/mailer.ts'
import { enqueue, timeOrderedId } from '#server/mail/outbox.ts'
import type { RateLimiter } from '#server/rate-limiter.ts'
import {
  categoryLabel,
  contactFields,
  HONEYPOT_FIELD,
  replyFields,
  statusLabel,
} from './contact-input.ts'

/**
 * The contact form and its admin inbox (docs/decisions/030). A message, and every mail it
 * causes, is written in one transaction: the outbox rows commit with the message or not at all,
 * and delivery starts only after the commit (the caller hands the returned mail ids on).
 */

const HOUR_MS = 3600 * 1000

export type ContactLimits = {
  limiter: RateLimiter
  messagesPerIpPerHour: number
  messagesPerEmailPerHour: number
}

/** Who an admin action is by: the admin's user-pool sub and username. */
export type ContactAdmin = { userId: string; username: string }

export type ContactSubmission =
  /** Stored; `mailIds` are the outbox rows to deliver once the caller has the commit. */
  | { outcome: 'stored'; id: string; mailIds: string[] }
  /** The honeypot was filled: answered like a success, but nothing kept or sent. */
  | { outcome: 'dropped' }
  | { outcome: 'limited' }

// Counters are keyed by hashes, so Redis holds no addresses or emails (as identity's limits).
const limitKey = (kind: string, value: string) =>
  `contact-${kind}:${createHash('sha256').update(value).digest('base64url').slice(0, 32)}`

/**
 * Accepts one message from the form. Invalid input throws a validation ContentError with a
 * Japanese message per field. Past the hourly limit of the client address or of the sender's
 * email, nothing is stored. A limiter that fails (Redis away) lets the message through: the
 * form stays up, the limit does not.
 */
export async function submitContactMessage(
  db: Kysely<DB>,
  input: Record<string, unknown>,
  options: {
    userId?: string | undefined
    clientAddress: string
    limits: ContactLimits
    admins: readonly string[]
    baseUrl: string
    warn?: (details: object, message: string) => void
    now?: number
  },
): Promise<ContactSubmission> {
  // Long by design: validation, both limits and the store must run in this order in one place.
  const fields = parseInput(contactFields, input)
  if (typeof input[HONEYPOT_FIELD] === 'string' && input[HONEYPOT_FIELD] !== '') {
    return { outcome: 'dropped' }
  }
  const { limits } = options
  try {
    const [byIp, byEmail] = await Promise.all([
      limits.limiter.hit(limitKey('ip', options.clientAddress), HOUR_MS),
      limits.limiter.hit(limitKey('email', fields.email.toLowerCase()), HOUR_MS),
    ])
    if (byIp > limits.messagesPerIpPerHour || byEmail > limits.messagesPerEmailPerHour) {
      return { outcome: 'limited' }
    }
  } catch (error) {
    options.warn?.({ err: error }, 'contact limiter unavailable; message not limited')
  }

  const now = options.now ?? Date.now()
  const id = timeOrderedId(now)
  const mailIds = await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('contact_messages')
      .values({
        id,
        name: fields.name,
        email: fields.email,
        category: fields.category,
        body: fields.message,
        user_id: options.userId ?? null,
        created_at: now,
        updated_at: now,
      })
      .execute()
    const category = categoryLabel(fields.category)
    const adminMail = (to: string): MailMessage => ({
      to,
      subject: `【テックラボ】お問い合わせ（${category}）: ${fields.name} 様`,
      text: [
        `${fields.name} 様（${fields.email}）からお問い合わせが届きました。`,
        `種類: ${category}`,
        '',
        fields.message,
        '',
        `回答はこちらから: ${options.baseUrl}/admin/contact/${id}`,
      ].join('\n'),
    })
    const ownMailbox =
      options.userId !== undefined && (await isVerifiedEmailOf(trx, options.userId, fields.email))
    const confirmation = ownMailbox
      ? {
          to: fields.email,
          subject: CONFIRMATION_SUBJECT,
          text: [
            `${fields.name} 様`,
            '',
            'お問い合わせありがとうございます。以下の内容で受け付けました。',
            '担当者より、このメールアドレスあてにご連絡します。',
            '',
            `種類: ${category}`,
            '',
            fields.message,
            '',
            '※ このメールは送信専用です。',
          ].join('\n'),
        }
      : guestConfirmation(fields.email)
    const recipients = await adminEmails(trx, options.admins)
    return Promise.all(
      [...recipients.map(adminMail), confirmation].map((mail) => enqueue(trx, mail, now)),
    )
  })
  return { outcome: 'stored', id, mailIds }
}

const CONFIRMATION_SUBJECT = '【テックラボ】お問い合わせを受け付けました'

/**
 * The confirmation to an address anyone could have typed into the form: it repeats nothing of
 * what was submitted (not even the name), so the form cannot carry someone's text to a
 * stranger's mailbox.
 */
function guestConfirmation(to: string): MailMessage {
  return {
    to,
    subject: CONFIRMATION_SUBJECT,
    text: [
      'テックラボのお問い合わせフォームから、このメールアドレスあてのお問い合わせを受け付けました。',
      '担当者より、このメールアドレスあてにご連絡します。',
      '',
      '※ このメールは送信専用です。お心当たりのない場合は、このメールを破棄してください。',
    ].join('\n'),
  }
}

/** Whether `email` is the signed-in user's own verified address (their mailbox, proven). */
async function isVerifiedEmailOf(
  db: Kysely<DB> | Transaction<DB>,
  userId: string,
  email: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('identity_users')
    .select('email')
    .where('sub', '=', userId)
    .where('email_verified', '=', 1)
    .executeTakeFirst()
  return row?.email?.toLowerCase() === email.toLowerCase()
}

/**
 * Where mail to the admins goes: ADMIN_USERS' entries that are emails as written, and those that
 * are usernames as their accounts' verified emails (an unverified address is not the admin's).
 */
export async function adminEmails(
  db: Kysely<DB> | Transaction<DB>,
  admins: readonly string[],
): Promise<string[]> {
  const emails = admins.filter((entry) => entry.includes('@'))
  const usernames = admins.filter((entry) => !entry.includes('@'))
  if (usernames.length > 0) {
    const rows = await db
      .selectFrom('identity_users')
      .select('email')
      .where(
        sql<string>`lower(username)`,
        'in',
        usernames.map((name) => name.toLowerCase()),
      )
      .where('email_verified', '=', 1)
      .where('email', 'is not', null)
      .execute()
    for (const row of rows) if (row.email) emails.push(row.email)
  }
  return [...new Map(emails.map((email) => [email.toLowerCase(), email])).values()]
}

export type ContactMessageSummary = {
  id: string
  name: string
  email: string
  category: Selectable<ContactMessagesTable>['category']
  categoryLabel: string
  status: ContactStatus
  statusLabel: string
  excerpt: string
  createdAt: number
  updatedAt: number
}

export type ContactMessageEvent = {
  id: string
  kind: 'reply' | 'closed' | 'reopened'
  actorName: string
  body: string | null
  createdAt: number
}

export type ContactMessageDetail = Omit<ContactMessageSummary, 'excerpt'> & {
  body: string
  userId: string | null
  events: ContactMessageEvent[]
}

const LIST_LIMIT = 100

/** The inbox, newest first, optionally of one status. */
export async function listContactMessages(
  db: Kysely<DB>,
  options: { status?: ContactStatus | undefined; limit?: number } = {},
): Promise<ContactMessageSummary[]> {
  let query = db.selectFrom('contact_messages').selectAll()
  if (options.status) query = query.where('status', '=', options.status)
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit ?? LIST_LIMIT)
    .execute()
  return rows.map((row) => ({
    ...summaryOf(row),
    excerpt: row.body.length > 80 ? `${row.body.slice(0, 80)}…` : row.body,
  }))
}

/** One message with what admins did to it, oldest first. */
export async function readContactMessage(
  db: Kysely<DB>,
  id: string,
): Promise<ContactMessageDetail> {
  const row = await db
    .selectFrom('contact_messages')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw ContentError.notFound('お問い合わせが見つかりませんでした')
  const events = await db
    .selectFrom('contact_message_events')
    .selectAll()
    .where('message_id', '=', id)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute()
  return {
    ...summaryOf(row),
    body: row.body,
    userId: row.user_id,
    events: events.map((event) => ({
      id: event.id,
      kind: event.kind,
      actorName: event.actor_name,
      body: event.body,
      createdAt: event.created_at,
    })),
  }
}

/**
 * An admin's reply: kept with the message, mailed to the sender (in the same transaction as
 * the outbox row), and the message becomes answered. Returns the mail ids to deliver.
 */
export async function replyToContactMessage(
  db: Kysely<DB>,
  admin: ContactAdmin,
  id: string,
  input: Record<string, unknown>,
  now = Date.now(),
): Promise<string[]> {
  const { body } = parseInput(replyFields, input)
  return db.transaction().execute(async (trx) => {
    const message = await lockedMessage(trx, id)
    await recordEvent(trx, admin, id, 'reply', body, now)
    await trx
      .updateTable('contact_messages')
      .set({ status: 'answered', updated_at: now })
      .where('id', '=', id)
      .execute()
    const mailId = await enqueue(
      trx,
      {
        to: message.email,
        subject: '【テックラボ】お問い合わせへの回答',
        text: [
          `${message.name} 様`,
          '',
          'お問い合わせいただいた件について、ご回答いたします。',
          '',
          body,
          '',
          '――――',
          `お問い合わせ内容（${categoryLabel(message.category)}）:`,
          message.body,
        ].join('\n'),
      },
      now,
    )
    return [mailId]
  })
}

/** Closes a message, or reopens a closed one (back to answered if it had a reply, else new). */
export async function setContactMessageClosed(
  db: Kysely<DB>,
  admin: ContactAdmin,
  id: string,
  closed: boolean,
  now = Date.now(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const message = await lockedMessage(trx, id)
    if ((message.status === 'closed') === closed) return
    let status: ContactStatus = 'closed'
    if (!closed) {
      const replied = await trx
        .selectFrom('contact_message_events')
        .select('id')
        .where('message_id', '=', id)
        .where('kind', '=', 'reply')
        .executeTakeFirst()
      status = replied ? 'answered' : 'new'
    }
    await recordEvent(trx, admin, id, closed ? 'closed' : 'reopened', null, now)
    await trx
      .updateTable('contact_messages')
      .set({ status, updated_at: now })
      .where('id', '=', id)
      .execute()
  })
}

/** The message, its row locked (PostgreSQL) so two admins' actions apply one after the other. */
async function lockedMessage(trx: Transaction<DB>, id: string) {
  let query = trx.selectFrom('contact_messages').selectAll().where('id', '=', id)
  if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate()
  const row = await query.executeTakeFirst()
  if (!row) throw ContentError.notFound('お問い合わせが見つかりませんでした')
  return row
}

async function recordEvent(
  trx: Transaction<DB>,
  admin: ContactAdmin,
  messageId: string,
  kind: 'reply' | 'closed' | 'reopened',
  body: string | null,
  now: number,
) {
  await trx
    .insertInto('contact_message_events')
    .values({
      id: timeOrderedId(now),
      message_id: messageId,
      actor_id: admin.userId,
      actor_name: admin.username,
      kind,
      body,
      created_at: now,
    })
    .execute()
}

function summaryOf(row: Selectable<ContactMessagesTable>): Omit<ContactMessageSummary, 'excerpt'> {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    category: row.category,
    categoryLabel: categoryLabel(row.category),
    status: row.status,
    statusLabel: statusLabel(row.status),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  }
}
