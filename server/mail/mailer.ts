/** A message to one recipient. Plain text always; HTML optional. */
export type MailMessage = {
  to: string
  subject: string
  text: string
  html?: string
}

/**
 * Sends mail. Every message is first written to the outbox table (so nothing is lost if
 * delivery fails), then delivered by SMTP when SMTP_URL is configured; without it the outbox
 * is the mailbox shown at /dev/mailbox (to this machine only) and each code is logged.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>
}

/**
 * Delivery of messages a caller wrote to the outbox itself (`enqueue` in its own transaction,
 * so they commit with its rows): called after the commit, it starts them as `send` would.
 * Never throws: what it cannot start, the retry loop delivers later.
 */
export interface QueuedMailDelivery {
  deliverQueued(ids: readonly string[]): Promise<void>
}
