import type { Kysely } from 'kysely'
import nodemailer from 'nodemailer'
import type { DB } from '#db/schema.ts'
import type { Mailer, MailMessage, QueuedMailDelivery } from './mailer.ts'
import {
  claimAttempt,
  dueForDelivery,
  enqueue,
  findOutboxMessages,
  markFailed,
  markSent,
  type OutboxMessage,
  type RetrySchedule,
} from './outbox.ts'
import { secretRedactor } from './redact.ts'

/** The part of a pino/Fastify logger the mailer uses. */
export type MailLog = {
  info(details: object, message: string): void
  warn(details: object, message: string): void
  error(details: object, message: string): void
}

export type MailerOptions = {
  db: Kysely<DB>
  /** `smtp://` or `smtps://`, possibly with credentials; without it mail stays in the outbox. */
  smtpUrl: string | undefined
  /** The From header, e.g. `テックラボ <no-reply@example.com>`. */
  from: string
  log: MailLog
  /** Without SMTP, where the outbox can be read (named in each message's log line). */
  mailboxUrl?: string
  retry?: Partial<RetrySchedule> & {
    /** How often the retry loop looks for due messages. */
    intervalMs?: number
    /** When it first looks, soon after start, for what an earlier run left unsent. */
    firstLookMs?: number
  }
  /** How long to wait for the SMTP server at each step before an attempt counts as failed. */
  timeoutMs?: number
  /** How long `close` waits for deliveries under way; a slow SMTP server must not hold up shutdown. */
  closeWaitMs?: number
  now?: () => number
}

/** A Mailer that also tells how delivery is going and can be shut down. */
export type MailService = Mailer &
  QueuedMailDelivery & {
    /** Whether messages are delivered by SMTP (otherwise they stay in the outbox). */
    readonly delivers: boolean
    /** Attempts every message that is due now; resolves with how many were delivered. */
    retryDue(): Promise<number>
    /** Resolves once the deliveries under way have finished (for tests and shutdown). */
    idle(): Promise<void>
    /**
     * Stops the retry loop and closes the SMTP transport, after waiting (a few seconds at most)
     * for deliveries under way. A delivery cut short stays in the outbox and is sent later.
     */
    close(): Promise<void>
  }

export const DEFAULT_RETRY = {
  intervalMs: 15_000,
  firstLookMs: 1_000,
  baseDelayMs: 30_000,
  maxAttempts: 5,
  maxAgeMs: 24 * 60 * 60 * 1000,
} as const

const MAX_ERROR_LENGTH = 500
/** An address the SMTP envelope can carry as one recipient, and nothing that could add more. */
const SINGLE_ADDRESS = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+$/

/**
 * Sends mail through the outbox: `send` writes the message there first, so nothing is lost
 * when delivery fails, and then (when SMTP is configured) starts delivering it without
 * making the caller wait for the SMTP server or fail because of it. A retry loop re-sends
 * what failed, with backoff, a few times at most.
 */
export function createMailer(options: MailerOptions): MailService {
  // Long by design: a factory whose returned methods share its private state; each method is short.
  const { db, from, log } = options
  const now = options.now ?? Date.now
  const schedule: RetrySchedule = {
    baseDelayMs: options.retry?.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
    maxAttempts: options.retry?.maxAttempts ?? DEFAULT_RETRY.maxAttempts,
    maxAgeMs: options.retry?.maxAgeMs ?? DEFAULT_RETRY.maxAgeMs,
  }
  const intervalMs = options.retry?.intervalMs ?? DEFAULT_RETRY.intervalMs
  const redact = secretRedactor(options.smtpUrl)
  const timeoutMs = options.timeoutMs ?? 20_000
  const transport = options.smtpUrl
    ? nodemailer.createTransport({
        url: options.smtpUrl,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
        // Nodemailer's own logging would print the SMTP conversation, credentials included.
        logger: false,
        debug: false,
      })
    : undefined

  const underWay = new Set<Promise<unknown>>()
  let closed = false
  let timer: NodeJS.Timeout | undefined

  if (transport && options.smtpUrl) {
    log.info({ smtp: smtpServerName(options.smtpUrl) }, 'mail is delivered through SMTP')
    scheduleRetry(options.retry?.firstLookMs ?? DEFAULT_RETRY.firstLookMs)
  } else {
    log.info(
      {},
      `SMTP_URL is not set: mail is not sent. Each message's code or link is printed here, and the messages are at ${options.mailboxUrl ?? 'the outbox'} (from this machine only)`,
    )
  }

  function track<T>(work: Promise<T>): Promise<T> {
    underWay.add(work)
    work.finally(() => underWay.delete(work)).catch(() => {})
    return work
  }

  function scheduleRetry(delayMs = intervalMs): void {
    if (closed) return
    timer = setTimeout(() => {
      timer = undefined
      track(retryDue())
        .catch((error: unknown) => {
          log.error({ error: describe(error) }, 'mail retry failed')
        })
        .finally(() => scheduleRetry())
    }, delayMs)
    timer.unref()
  }

  /** One attempt at one message; never throws. True when it was delivered. */
  async function attempt(message: OutboxMessage): Promise<boolean> {
    if (!transport || closed) return false
    try {
      if (!(await claimAttempt(db, message.id, message.attempts))) return false
    } catch (error) {
      log.warn({ mailId: message.id, error: describe(error) }, 'mail delivery not started')
      return false
    }
    const attemptNumber = message.attempts + 1
    try {
      await transport.sendMail({
        from,
        to: message.to,
        // One recipient, exactly as written: never a list parsed out of it.
        envelope: { from: envelopeAddress(from), to: [message.to] },
        subject: message.subject,
        text: message.text,
        ...(message.html !== undefined && { html: message.html }),
      })
    } catch (error) {
      const reason = describe(error)
      const givingUp = attemptNumber >= schedule.maxAttempts
      log[givingUp ? 'error' : 'warn'](
        { mailId: message.id, attempt: attemptNumber, error: reason },
        givingUp ? 'mail delivery failed; giving up' : 'mail delivery failed; will retry',
      )
      try {
        await markFailed(db, message.id, reason)
      } catch (recordError) {
        log.warn({ mailId: message.id, error: describe(recordError) }, 'mail failure not recorded')
      }
      return false
    }
    try {
      await markSent(db, message.id, now())
    } catch (recordError) {
      // Delivered but not marked: it may be delivered again, which beats losing it.
      log.warn({ mailId: message.id, error: describe(recordError) }, 'mail delivery not recorded')
    }
    log.info({ mailId: message.id, attempt: attemptNumber }, 'mail delivered')
    return true
  }

  /** A message just written to the outbox: logged without SMTP, else its first attempt begun. */
  function start(message: OutboxMessage): void {
    if (!transport) {
      // Nobody receives it: this line is how whoever runs the site finishes a sign-up.
      log.info({ mailId: message.id }, unsentMailLine(message, options.mailboxUrl))
      return
    }
    if (closed) return
    // Not awaited: the caller answers its user while the SMTP server is being talked to.
    track(attempt(message))
  }

  async function retryDue(): Promise<number> {
    if (!transport || closed) return 0
    let delivered = 0
    for (const message of await dueForDelivery(db, schedule, now())) {
      if (closed) break
      if (await track(attempt(message))) delivered++
    }
    return delivered
  }

  function describe(error: unknown): string {
    let text: string
    if (error instanceof Error) {
      const code = (error as { code?: unknown }).code
      text =
        typeof code === 'string' && !error.message.startsWith(code)
          ? `${code}: ${error.message}`
          : error.message
    } else {
      text = String(error)
    }
    const clean = redact(text).replace(/\s+/g, ' ').trim()
    return clean.length > MAX_ERROR_LENGTH ? `${clean.slice(0, MAX_ERROR_LENGTH - 1)}…` : clean
  }

  return {
    delivers: transport !== undefined,

    async send(message: MailMessage): Promise<void> {
      if (!SINGLE_ADDRESS.test(message.to)) {
        throw new TypeError('A mail message needs exactly one plain recipient address')
      }
      const createdAt = now()
      const id = await enqueue(db, message, createdAt)
      start({ ...message, id, createdAt, sentAt: null, attempts: 0, lastError: null })
    },

    async deliverQueued(ids: readonly string[]): Promise<void> {
      let messages: OutboxMessage[]
      try {
        messages = await findOutboxMessages(db, ids)
      } catch (error) {
        // Committed already: the retry loop delivers them; the caller's work is done.
        log.warn({ error: describe(error) }, 'queued mail not started; left to the retry loop')
        return
      }
      for (const message of messages) {
        if (message.sentAt !== null || message.attempts > 0) continue
        // The caller wrote the row itself, past `send`'s check: never deliver to a list.
        if (!SINGLE_ADDRESS.test(message.to)) {
          log.error({ mailId: message.id }, 'queued mail has no single recipient; not delivered')
          continue
        }
        start(message)
      }
    },

    retryDue,

    idle,

    async close(): Promise<void> {
      closed = true
      if (timer) clearTimeout(timer)
      timer = undefined
      let waited: NodeJS.Timeout | undefined
      await Promise.race([
        idle(),
        new Promise((resolve) => {
          waited = setTimeout(resolve, options.closeWaitMs ?? 5_000)
        }),
      ])
      clearTimeout(waited)
      transport?.close()
    },
  }

  async function idle(): Promise<void> {
    while (underWay.size > 0) await Promise.allSettled([...underWay])
  }
}

/**
 * One readable line for a message that is not sent: recipient, subject, and the code or link
 * it carries (what the recipient would act on), never the rest of the body.
 */
export function unsentMailLine(message: MailMessage, mailboxUrl?: string): string {
  const code = /(?:コード|code)\s*[:：]\s*([0-9A-Za-z-]{4,64})/i.exec(message.text)?.[1]
  const link = /https?:\/\/[^\s<>"]+/.exec(message.text)?.[0]
  const carries = code ? `code ${code}` : link ? `link ${link}` : 'no code or link'
  const where = mailboxUrl ? `; full text at ${mailboxUrl}` : ''
  return `mail not sent (no SMTP_URL): to ${message.to} | ${message.subject} | ${carries}${where}`
}

/** Host and port only: the URL itself may carry a password. */
function smtpServerName(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl)
    return `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}`
  } catch {
    return '(unparsable SMTP_URL)'
  }
}

/** The bare address of a From header such as `テックラボ <no-reply@example.com>`. */
function envelopeAddress(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1]?.trim() ?? from.trim()
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The site's mailer (server/app.ts composes it); identity and tests send through it. */
    mailer: MailService
  }
}
