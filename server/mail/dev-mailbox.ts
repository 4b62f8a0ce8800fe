import { isIP } from 'node:net'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { DEV_MAILBOX_PATH } from '#server/config.ts'
import { listOutbox, type OutboxMessage } from './outbox.ts'

export { DEV_MAILBOX_PATH }

const MAX_LIMIT = 500
const MAX_ADDRESS_LENGTH = 320

/**
 * The development mailbox: `/dev/mailbox` shows the outbox as a page, newest first, and
 * `/dev/mailbox/messages.json?to=…` gives it to tests and tools. It exists only while mail is
 * not sent (no SMTP_URL, so `devMailboxPath` is set), in every mode, so that a newcomer's
 * `npm start` can finish a sign-up; and it answers only this machine, under its own name
 * (see `fromThisMachine`).
 * Everyone else gets a plain 404. Returns whether it was registered.
 */
export function registerDevMailbox(
  app: FastifyInstance,
  db: Kysely<DB>,
  devMailboxPath: string | undefined,
): boolean {
  if (devMailboxPath === undefined) return false

  app.get(DEV_MAILBOX_PATH, async (request, reply) => {
    if (!fromThisMachine(request)) return notFound(reply)
    const query = readQuery(request.query)
    if ('error' in query) return badRequest(reply, query.error)
    const messages = await listOutbox(db, query)
    return reply
      .header('cache-control', 'no-store')
      .header(
        'content-security-policy',
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      )
      .header('x-robots-tag', 'noindex')
      .type('text/html; charset=utf-8')
      .send(renderMailbox(messages, query.to))
  })

  app.get(`${DEV_MAILBOX_PATH}/messages.json`, async (request, reply) => {
    if (!fromThisMachine(request)) return notFound(reply)
    const query = readQuery(request.query)
    if ('error' in query) return reply.code(400).send({ error: query.error })
    const messages = await listOutbox(db, query)
    return reply.header('cache-control', 'no-store').send({ messages })
  })
  return true
}

/** Headers a proxy adds: a request relayed from elsewhere also comes from a loopback socket. */
const RELAYED = ['forwarded', 'x-forwarded-for', 'x-real-ip', 'via']

/**
 * A client on this machine talking to us directly: a loopback peer address and no sign of a
 * proxy on the way (a reverse proxy on the same host would make every visitor loopback).
 */
export function fromThisMachine(request: FastifyRequest): boolean {
  if (RELAYED.some((name) => request.headers[name] !== undefined)) return false
  return isLoopback(request.socket.remoteAddress) && isLoopbackHost(request.headers.host)
}

const LOOPBACK_HOST = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/i

/**
 * A page of another site can make a browser on this machine call us under that site's name,
 * once its DNS answers 127.0.0.1 (DNS rebinding): the socket is loopback, the Host is not. So
 * the mailbox answers only the names this machine goes by.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  return host !== undefined && LOOPBACK_HOST.test(host)
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false
  const bare = address.replace(/^::ffff:/i, '')
  if (isIP(bare) === 4) return bare.startsWith('127.')
  return address === '::1'
}

function notFound(reply: FastifyReply) {
  return reply
    .code(404)
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send('404 Not Found')
}

type MailboxQuery = { to?: string; limit: number }

function readQuery(raw: unknown): MailboxQuery | { error: string } {
  const query = (raw ?? {}) as Record<string, unknown>
  const result: MailboxQuery = { limit: 100 }
  if (query.to !== undefined && query.to !== '') {
    if (typeof query.to !== 'string' || query.to.length > MAX_ADDRESS_LENGTH) {
      return { error: 'to must be one mail address' }
    }
    result.to = query.to.trim()
  }
  if (query.limit !== undefined) {
    const limit = typeof query.limit === 'string' ? Number(query.limit) : Number.NaN
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      return { error: `limit must be a whole number from 1 to ${MAX_LIMIT}` }
    }
    result.limit = limit
  }
  return result
}

function badRequest(reply: FastifyReply, message: string) {
  return reply.code(400).type('text/plain; charset=utf-8').send(`400 ${message}`)
}

const TIME = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
})

/** Escapes text for HTML element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ??
      character,
  )
}

function time(epochMs: number): string {
  const date = new Date(epochMs)
  return `<time datetime="${escapeHtml(date.toISOString())}">${escapeHtml(TIME.format(date))}</time>`
}

function status(message: OutboxMessage): string {
  if (message.sentAt !== null) return `送信済み（${time(message.sentAt)}）`
  if (message.attempts === 0) return '未送信（送信箱に保存）'
  const error = message.lastError ? `：${escapeHtml(message.lastError)}` : ''
  return `送信できていません（${message.attempts} 回試行）${error}`
}

/** The mailbox page. Everything that came from a message is escaped: bodies may hold anything. */
export function renderMailbox(messages: OutboxMessage[], to?: string): string {
  const filter = to
    ? `<p>宛先 <strong>${escapeHtml(to)}</strong> のメールだけを表示しています。<a href="${DEV_MAILBOX_PATH}">すべて表示</a></p>`
    : ''
  // A line break right after <pre> is dropped by HTML parsers: one is added so that a body
  // that starts with its own line break shows it.
  const items =
    messages.length === 0
      ? '<p class="empty">まだメールはありません。</p>'
      : messages
          .map(
            (message) => `<article>
<h2>${escapeHtml(message.subject) || '（件名なし）'}</h2>
<dl>
<dt>宛先</dt><dd><a href="${DEV_MAILBOX_PATH}?to=${escapeHtml(encodeURIComponent(message.to))}">${escapeHtml(message.to)}</a></dd>
<dt>日時</dt><dd>${time(message.createdAt)}</dd>
<dt>状態</dt><dd>${status(message)}</dd>
</dl>
<pre>
${escapeHtml(message.text)}</pre>
</article>`,
          )
          .join('\n')
  return `<!DOCTYPE html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>開発用メールボックス</title>
<style>
body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1f2937;line-height:1.6}
h1{font-size:1.5rem}h2{font-size:1.125rem;margin:0 0 .5rem}
article{border:1px solid #d1d5db;border-radius:.5rem;padding:1rem;margin:1rem 0}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0 0 .75rem}dt{color:#6b7280}dd{margin:0;overflow-wrap:anywhere}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f3f4f6;padding:.75rem;border-radius:.375rem;margin:0}
form{display:flex;gap:.5rem;flex-wrap:wrap}input{flex:1;min-width:12rem;padding:.25rem .5rem}
.note,.empty{color:#6b7280}
</style>
</head>
<body>
<main>
<h1>開発用メールボックス</h1>
<p class="note">メールを送信しない設定（SMTP_URL 未設定）のときだけ、このマシンからのアクセスにだけ表示されます。このサイトが送ったメールを新しい順に ${messages.length} 件表示しています（<a href="${DEV_MAILBOX_PATH}/messages.json${to ? `?to=${escapeHtml(encodeURIComponent(to))}` : ''}">JSON</a>）。</p>
<form method="get" action="${DEV_MAILBOX_PATH}">
<label for="to">宛先で絞り込む</label>
<input id="to" name="to" type="email" value="${escapeHtml(to ?? '')}" placeholder="user@example.com">
<button type="submit">表示</button>
</form>
${filter}
${items}
</main>
</body>
</html>
`
}
