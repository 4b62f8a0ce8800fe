import { once } from 'node:events'
import net from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTemporaryDatabase, type TemporaryDatabase } from '#db/test-support.ts'
import { codeMessage } from '#server/identity/user-pool/messages.ts'
import {
  createMailer,
  type MailerOptions,
  type MailService,
  unsentMailLine,
} from './create-mailer.ts'
import { claimAttempt, enqueue, listOutbox } from './outbox.ts'
import { startTestSmtpServer, type TestSmtpServer } from './test-support.ts'

const USER = 'mailer@techlab.test'
// Characters that need percent-encoding in the URL, so every form of it is tried.
const PASSWORD = 'p@ss:w/rd%秘密-7f3k'
const FROM = 'テックラボ <no-reply@techlab.test>'

let database: TemporaryDatabase
let clock: number
const cleanups: (() => Promise<void>)[] = []
/** Everything every mailer logged, as one string per line. */
const logged: string[] = []

const log = {
  info: (details: object, message: string) => logged.push(JSON.stringify({ details, message })),
  warn: (details: object, message: string) => logged.push(JSON.stringify({ details, message })),
  error: (details: object, message: string) => logged.push(JSON.stringify({ details, message })),
}

beforeEach(async () => {
  logged.length = 0
  database = await openTemporaryDatabase()
  clock = Date.UTC(2026, 10, 22, 3, 0, 0)
})
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  await database.remove()
})

function mailer(options: Partial<MailerOptions> = {}): MailService {
  const created = createMailer({
    db: database.db,
    smtpUrl: undefined,
    from: FROM,
    log,
    now: () => clock,
    // The loop is driven by hand (retryDue) unless a test asks for it.
    retry: { intervalMs: 60_000, firstLookMs: 60_000, baseDelayMs: 1_000, maxAttempts: 3 },
    timeoutMs: 2_000,
    ...options,
  })
  cleanups.push(() => created.close())
  return created
}

async function smtpServer(port?: number): Promise<TestSmtpServer> {
  const server = await startTestSmtpServer({ user: USER, password: PASSWORD, port })
  cleanups.push(() => server.close())
  return server
}

/** A port on which nothing listens (for now). */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as net.AddressInfo
  server.close()
  await once(server, 'close')
  return port
}

function smtpUrl(port: number, password = PASSWORD): string {
  return `smtp://${encodeURIComponent(USER)}:${encodeURIComponent(password)}@127.0.0.1:${port}`
}

const JAPANESE = {
  to: 'hana@example.com',
  subject: '【テックラボ】確認コードのお知らせ：123456 — ようこそ、はなさん！🎉',
  text: [
    'はなさん、テックラボへようこそ。',
    '',
    '確認コード：123456',
    `${'とても長い行です。'.repeat(20)}`,
    '記号もそのまま: <b>&amp; "quotes" = =3D ✓',
  ].join('\n'),
}

async function row(id?: string) {
  const [message] = await listOutbox(database.db, {})
  if (id) expect(message?.id).toBe(id)
  if (!message) throw new Error('the outbox is empty')
  return message
}

describe('without SMTP_URL', () => {
  it('keeps every message in the outbox, unsent', async () => {
    const mail = mailer()
    expect(mail.delivers).toBe(false)
    await mail.send(JAPANESE)
    await mail.idle()
    const message = await row()
    expect(message).toMatchObject({ ...JAPANESE, sentAt: null, attempts: 0, lastError: null })
    expect(await mail.retryDue()).toBe(0)
  })

  it('prints one readable line per message: recipient, subject and the code, never the rest', async () => {
    const mail = mailer({ mailboxUrl: 'http://localhost:3000/dev/mailbox' })
    await mail.send(codeMessage('sign_up', 'hana@example.com', 'hana', '482913', '24時間'))
    const line = logged.map((entry) => JSON.parse(entry).message).find((m) => m.includes('hana@'))
    expect(line).toBe(
      'mail not sent (no SMTP_URL): to hana@example.com | 【テックラボ】ご登録の確認コード | code 482913; full text at http://localhost:3000/dev/mailbox',
    )
    expect(line).not.toMatch(/\n/)
  })

  it('names a link when the message carries one instead of a code', () => {
    expect(
      unsentMailLine({
        to: 'a@example.com',
        subject: '確認',
        text: '次を開いてください\nhttps://x.example/v?t=1\n',
      }),
    ).toBe('mail not sent (no SMTP_URL): to a@example.com | 確認 | link https://x.example/v?t=1')
  })
})

describe('with a real SMTP server', () => {
  it('delivers with the right envelope, headers and Japanese subject and body', async () => {
    const smtp = await smtpServer()
    const mail = mailer({ smtpUrl: smtp.url })
    expect(mail.delivers).toBe(true)
    await mail.send(JAPANESE)
    const [received] = await smtp.waitFor(1)
    expect(received).toMatchObject({
      envelopeFrom: 'no-reply@techlab.test',
      envelopeTo: ['hana@example.com'],
      user: USER,
      subject: JAPANESE.subject,
      text: JAPANESE.text,
      from: FROM,
      to: 'hana@example.com',
    })
    // Nodemailer keeps the wire 7-bit: the Japanese travels encoded.
    expect(received?.raw).toMatch(/^[\x20-\x7e\r\n\t]*$/)
    await mail.idle()
    const message = await row()
    expect(message).toMatchObject({ sentAt: clock, attempts: 1, lastError: null })
  })

  it('sends the HTML alternative beside the text', async () => {
    const smtp = await smtpServer()
    const mail = mailer({ smtpUrl: smtp.url })
    await mail.send({ ...JAPANESE, html: '<p>確認コード：<strong>123456</strong></p>' })
    const [received] = await smtp.waitFor(1)
    expect(received?.headers.get('content-type')).toMatch(/^multipart\/alternative/)
    expect(received?.text).toBe(JAPANESE.text)
  })

  it('does not make the caller wait for the SMTP server', async () => {
    const smtp = await smtpServer()
    const mail = mailer({ smtpUrl: smtp.url })
    await mail.send(JAPANESE)
    // The message is written; delivery is still under way.
    expect(smtp.received).toHaveLength(0)
    expect((await row()).sentAt).toBeNull()
    await mail.idle()
    expect(smtp.received).toHaveLength(1)
  })

  it('keeps the message and records why when the password is wrong, without the password', async () => {
    const smtp = await smtpServer()
    const wrong = `${PASSWORD}-wrong`
    const mail = mailer({ smtpUrl: smtpUrl(smtp.port, wrong) })
    await mail.send(JAPANESE)
    await mail.idle()
    expect(smtp.received).toHaveLength(0)
    const message = await row()
    expect(message.sentAt).toBeNull()
    expect(message.attempts).toBe(1)
    expect(message.lastError).toMatch(/EAUTH|auth/i)
    expectNoSecret(message.lastError ?? '', wrong)
    expectNoSecret(logged.join('\n'), wrong)
  })
  it('removes the password from what a careless server echoes back', async () => {
    const wrong = `${PASSWORD}-wrong`
    const smtp = await startTestSmtpServer({
      user: USER,
      password: PASSWORD,
      authError: (user, password) =>
        `rejected ${user}:${password} (${Buffer.from(`\0${user}\0${password}`).toString('base64')}) from ${smtpUrl(0, password)}`,
    })
    cleanups.push(() => smtp.close())
    const mail = mailer({ smtpUrl: smtpUrl(smtp.port, wrong) })
    await mail.send(JAPANESE)
    await mail.idle()
    const message = await row()
    expect(message.lastError).toContain(`rejected ${USER}:***`)
    expectNoSecret(message.lastError ?? '', wrong)
    expectNoSecret(logged.join('\n'), wrong)
  })
})

describe('when the SMTP server is down', () => {
  it('does not fail the caller, keeps the message with the error, and retries with backoff', async () => {
    const port = await closedPort()
    const mail = mailer({ smtpUrl: smtpUrl(port) })
    await mail.send(JAPANESE)
    await mail.idle()
    let message = await row()
    expect(message).toMatchObject({ sentAt: null, attempts: 1 })
    expect(message.lastError).toMatch(/ECONNREFUSED|ECONNECTION|connect/i)
    expect(logged.join('\n')).toContain('mail delivery failed; will retry')

    // Not yet due: the first retry waits one base delay (1 s here).
    clock += 999
    expect(await mail.retryDue()).toBe(0)
    expect((await row()).attempts).toBe(1)

    // Still down when it is due: the second attempt fails too.
    clock += 1
    expect(await mail.retryDue()).toBe(0)
    expect((await row()).attempts).toBe(2)

    // The next retry waits twice as long (due 3 s after the message was written).
    const smtp = await smtpServer(port)
    clock += 1_999
    expect(await mail.retryDue()).toBe(0)
    clock += 1
    expect(await mail.retryDue()).toBe(1)
    const [received] = await smtp.waitFor(1)
    expect(received?.subject).toBe(JAPANESE.subject)
    message = await row()
    expect(message).toMatchObject({ sentAt: clock, attempts: 3, lastError: null })
    // Sent messages are never sent again.
    clock += 60_000
    expect(await mail.retryDue()).toBe(0)
    expect(smtp.received).toHaveLength(1)
    expectNoSecret(logged.join('\n'), PASSWORD)
  })

  it('gives up after the last attempt', async () => {
    const port = await closedPort()
    const mail = mailer({ smtpUrl: smtpUrl(port) })
    await mail.send(JAPANESE)
    await mail.idle()
    for (let step = 0; step < 5; step++) {
      clock += 10_000
      await mail.retryDue()
    }
    const message = await row()
    expect(message).toMatchObject({ sentAt: null, attempts: 3 })
    expect(message.lastError).toBeTruthy()
    expect(logged.join('\n')).toContain('giving up')
  })

  it('retries what was never tried, but not messages older than a day, whose codes have expired', async () => {
    const smtp = await smtpServer()
    const mail = mailer({ smtpUrl: smtp.url })
    await enqueue(database.db, JAPANESE, clock - 25 * 60 * 60 * 1000)
    const fresh = await enqueue(database.db, { ...JAPANESE, to: 'new@example.com' }, clock - 5_000)
    expect(await mail.retryDue()).toBe(1)
    const [received] = await smtp.waitFor(1)
    expect(received?.envelopeTo).toEqual(['new@example.com'])
    const messages = await listOutbox(database.db)
    expect(messages.find((message) => message.id === fresh)?.sentAt).toBe(clock)
    expect(messages.find((message) => message.id !== fresh)?.attempts).toBe(0)
  })

  it('retries on its own timer', async () => {
    const port = await closedPort()
    const mail = mailer({
      smtpUrl: smtpUrl(port),
      now: Date.now,
      retry: { intervalMs: 25, firstLookMs: 25, baseDelayMs: 50, maxAttempts: 5 },
    })
    await mail.send(JAPANESE)
    await mail.idle()
    expect((await row()).lastError).toBeTruthy()
    const smtp = await smtpServer(port)
    const [received] = await smtp.waitFor(1, 5_000)
    expect(received?.text).toBe(JAPANESE.text)
    await mail.idle()
    expect((await row()).sentAt).not.toBeNull()
  })
})

describe('shutting down', () => {
  it('stops the retry loop and delivers nothing more after close', async () => {
    const port = await closedPort()
    const mail = mailer({
      smtpUrl: smtpUrl(port),
      now: Date.now,
      retry: { intervalMs: 10, baseDelayMs: 10, maxAttempts: 5 },
    })
    await mail.send(JAPANESE)
    await mail.close()
    const smtp = await smtpServer(port)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await mail.retryDue()).toBe(0)
    await mail.send({ ...JAPANESE, to: 'later@example.com' })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(smtp.received).toHaveLength(0)
    // What was written is still there for the next start.
    expect(await listOutbox(database.db)).toHaveLength(2)
  })
})

describe('closing while the SMTP server does not answer', () => {
  it('waits a moment at most, and the message stays in the outbox', async () => {
    // Accepts connections and never greets them.
    const sockets = new Set<net.Socket>()
    const silent = net.createServer((socket) => sockets.add(socket)).listen(0, '127.0.0.1')
    await once(silent, 'listening')
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy()
      silent.close()
    })
    const { port } = silent.address() as net.AddressInfo
    const mail = mailer({ smtpUrl: smtpUrl(port), closeWaitMs: 100 })
    await mail.send(JAPANESE)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(sockets.size).toBe(1)
    const started = performance.now()
    await mail.close()
    expect(performance.now() - started).toBeLessThan(1_000)
    expect((await row()).sentAt).toBeNull()
  })
})

describe('send', () => {
  it.each([
    'hana@example.com, mallory@example.com',
    'hana@example.com\r\nBcc: mallory@example.com',
    'Hana <hana@example.com>',
    'hana@example.com;mallory@example.com',
    'no-at-sign',
    '',
  ])('refuses %j as a recipient and writes nothing', async (to) => {
    const mail = mailer()
    await expect(mail.send({ ...JAPANESE, to })).rejects.toThrow(TypeError)
    expect(await listOutbox(database.db)).toHaveLength(0)
  })
})

describe('deliverQueued', () => {
  it('delivers what a caller wrote in its own transaction, once, and never to a list', async () => {
    const smtp = await smtpServer()
    const mail = mailer({ smtpUrl: smtp.url })
    const ids = await database.db
      .transaction()
      .execute(async (trx) => [
        await enqueue(trx, JAPANESE, clock),
        await enqueue(trx, { ...JAPANESE, to: 'a@example.com, b@example.com' }, clock),
      ])
    await mail.deliverQueued(ids)
    await mail.deliverQueued(ids)
    const [received] = await smtp.waitFor(1)
    expect(received?.envelopeTo).toEqual(['hana@example.com'])
    await mail.idle()
    const messages = await listOutbox(database.db)
    expect(messages.find((message) => message.id === ids[0])).toMatchObject({ attempts: 1 })
    expect(messages.find((message) => message.id === ids[1])).toMatchObject({
      attempts: 0,
      sentAt: null,
    })
    expect(smtp.received).toHaveLength(1)
  })
})

describe('claimAttempt', () => {
  it('lets exactly one of several concurrent attempts take a message', async () => {
    const id = await enqueue(database.db, JAPANESE)
    const claims = await Promise.all(
      Array.from({ length: 5 }, () => claimAttempt(database.db, id, 0)),
    )
    expect(claims.filter(Boolean)).toHaveLength(1)
    expect((await row(id)).attempts).toBe(1)
  })
})

function expectNoSecret(text: string, password: string): void {
  const forms = [
    password,
    encodeURIComponent(password),
    Buffer.from(password).toString('base64'),
    Buffer.from(`\0${USER}\0${password}`).toString('base64'),
  ]
  for (const form of forms) expect(text).not.toContain(form)
  // A URL may appear only with its credentials replaced.
  expect(text).not.toMatch(/smtps?:\/\/(?!\*\*\*@)[^\s"]*@/)
}
