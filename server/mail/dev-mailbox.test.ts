import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTemporaryDatabase, type TemporaryDatabase } from '#db/test-support.ts'
import { DEV_MAILBOX_PATH, escapeHtml, isLoopback, registerDevMailbox } from './dev-mailbox.ts'
import { claimAttempt, enqueue, markFailed } from './outbox.ts'

let database: TemporaryDatabase
let app: FastifyInstance

beforeEach(async () => {
  database = await openTemporaryDatabase()
  app = Fastify()
})
afterEach(async () => {
  await app.close()
  await database.remove()
})

const HOSTILE = {
  to: 'hana@example.com',
  subject: '</title><script>alert("件名")</script>',
  text: '\n先頭の改行も残る\n<img src=x onerror=alert(1)> & "引用" \'単引用\'\n</pre><h1>偽物</h1>',
}

describe('registerDevMailbox', () => {
  it('registers nothing when mail is sent (SMTP_URL set)', async () => {
    expect(registerDevMailbox(app, database.db, undefined)).toBe(false)
    expect((await app.inject('/dev/mailbox')).statusCode).toBe(404)
    expect((await app.inject('/dev/mailbox/messages.json')).statusCode).toBe(404)
  })

  it('shows the mailbox while mail is not sent', async () => {
    expect(registerDevMailbox(app, database.db, DEV_MAILBOX_PATH)).toBe(true)
    const response = await app.inject('/dev/mailbox')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.body).toContain('<html lang="ja">')
    expect(response.body).toContain('<h1>開発用メールボックス</h1>')
    expect(response.body).toContain('まだメールはありません')
  })

  it('lists messages newest first with recipient, subject, time and body, all escaped', async () => {
    registerDevMailbox(app, database.db, DEV_MAILBOX_PATH)
    const created = Date.UTC(2026, 10, 22, 3, 4, 5)
    await enqueue(
      database.db,
      { to: 'old@example.com', subject: '古いメール', text: '古い' },
      created,
    )
    await enqueue(database.db, HOSTILE, created + 1_000)
    const { body, headers } = await app.inject('/dev/mailbox')
    expect(headers['content-security-policy']).toContain("default-src 'none'")
    expect(body.indexOf(escapeHtml(HOSTILE.subject))).toBeGreaterThan(0)
    expect(body.indexOf(escapeHtml(HOSTILE.subject))).toBeLessThan(body.indexOf('古いメール'))
    expect(body).toContain(`<pre>\n${escapeHtml(HOSTILE.text)}</pre>`)
    expect(body).toContain('hana@example.com')
    // Japan time, with the exact instant for machines.
    expect(body).toContain('<time datetime="2026-11-22T03:04:06.000Z">2026/11/22 12:04:06</time>')
    expect(body).toContain('2 件')
    for (const raw of ['<script>', '<img', '</pre><h1>', '"引用"', "'単引用'"]) {
      expect(body).not.toContain(raw)
    }
  })

  it('shows whether each message was sent, and why not', async () => {
    registerDevMailbox(app, database.db, DEV_MAILBOX_PATH)
    const id = await enqueue(database.db, { to: 'a@example.com', subject: 's', text: 't' })
    await claimAttempt(database.db, id, 0)
    await markFailed(database.db, id, 'ESOCKET: connect <refused>')
    const { body } = await app.inject('/dev/mailbox')
    expect(body).toContain('送信できていません（1 回試行）：ESOCKET: connect &lt;refused&gt;')
  })

  it('filters by recipient, in the page and as JSON, regardless of case', async () => {
    registerDevMailbox(app, database.db, DEV_MAILBOX_PATH)
    await enqueue(database.db, HOSTILE)
    await enqueue(database.db, { to: 'Other@Example.com', subject: 'ほか', text: '本文' })
    const page = await app.inject('/dev/mailbox?to=other%40example.com')
    expect(page.body).toContain('ほか')
    expect(page.body).not.toContain(escapeHtml(HOSTILE.subject))
    expect(page.body).toContain('value="other@example.com"')

    const json = await app.inject('/dev/mailbox/messages.json?to=hana%40example.com')
    expect(json.statusCode).toBe(200)
    expect(json.headers['content-type']).toMatch(/^application\/json/)
    const { messages } = json.json()
    expect(messages).toEqual([
      expect.objectContaining({ ...HOSTILE, sentAt: null, attempts: 0, lastError: null }),
    ])
    expect((await app.inject('/dev/mailbox/messages.json')).json().messages).toHaveLength(2)
    expect((await app.inject('/dev/mailbox/messages.json?limit=1')).json().messages).toHaveLength(1)
  })

  it.each([
    '/dev/mailbox/messages.json?limit=0',
    '/dev/mailbox/messages.json?limit=abc',
    '/dev/mailbox/messages.json?limit=501',
    '/dev/mailbox/messages.json?to=a@example.com&to=b@example.com',
    '/dev/mailbox?limit=-1',
    `/dev/mailbox?to=${'a'.repeat(321)}`,
  ])('answers 400 to %s', async (url) => {
    registerDevMailbox(app, database.db, DEV_MAILBOX_PATH)
    expect((await app.inject(url)).statusCode).toBe(400)
  })
})

describe('isLoopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['::ffff:192.168.1.2', false],
    ['203.0.113.9', false],
    ['fe80::1', false],
    ['::', false],
    [undefined, false],
  ])('%s → %s', (address, expected) => {
    expect(isLoopback(address)).toBe(expected)
  })
})
