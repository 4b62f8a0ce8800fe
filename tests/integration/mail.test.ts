import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '#db/database.ts'
import { migrateToLatest } from '#db/migrate.ts'
import { renderMailbox } from '#server/mail/dev-mailbox.ts'
import { enqueue, listOutbox, type OutboxMessage } from '#server/mail/outbox.ts'
import { startTestSmtpServer, type TestSmtpServer } from '#server/mail/test-support.ts'
import { rawRequest, statusOf } from '#tests/support/http.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

const USER = 'techlab-relay'
const PASSWORD = 'relay-pässword:/@9c1e'
const FROM = 'テックラボ <no-reply@techlab.test>'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function smtpServer(port?: number): Promise<TestSmtpServer> {
  const smtp = await startTestSmtpServer({ user: USER, password: PASSWORD, port })
  cleanups.push(() => smtp.close())
  return smtp
}

async function siteServer(environment: Record<string, string>): Promise<TestServer> {
  const server = await startTestServer({ MAIL_FROM: FROM, ...environment })
  cleanups.push(() => server.close())
  return server
}

async function closedPort(): Promise<number> {
  const probe = net.createServer().listen(0, '127.0.0.1')
  await once(probe, 'listening')
  const { port } = probe.address() as net.AddressInfo
  probe.close()
  await once(probe, 'close')
  return port
}

function smtpUrl(port: number): string {
  return `smtp://${encodeURIComponent(USER)}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`
}

/** The outbox as the mailbox shows it; read directly, as the page is off while SMTP is on. */
async function mailbox(server: TestServer, to: string): Promise<OutboxMessage[]> {
  return listOutbox(server.database.db, { to })
}

const WELCOME = {
  subject: '【テックラボ】メールアドレスの確認コード',
  text: 'はなさん、ご登録ありがとうございます。\n確認コード：482913\n（24 時間有効です）',
}

describe('mail through a real SMTP server with authentication', () => {
  it('delivers what the site sends, with Japanese intact, and records it as sent', async () => {
    const smtp = await smtpServer()
    const server = await siteServer({ SMTP_URL: smtp.url })
    await server.app.mailer.send({ to: 'hana@example.com', ...WELCOME })
    const [received] = await smtp.waitFor(1)
    expect(received).toMatchObject({
      user: USER,
      envelopeFrom: 'no-reply@techlab.test',
      envelopeTo: ['hana@example.com'],
      from: FROM,
      to: 'hana@example.com',
      subject: WELCOME.subject,
      text: WELCOME.text,
    })
    await server.app.mailer.idle()
    const [message] = await mailbox(server, 'hana@example.com')
    expect(message).toMatchObject({ ...WELCOME, attempts: 1, lastError: null })
    expect(message?.sentAt).toEqual(expect.any(Number))
  })

  it('keeps the message with the error while the SMTP server is down, then retries it', async () => {
    const port = await closedPort()
    const server = await siteServer({ SMTP_URL: smtpUrl(port) })
    // The caller is not failed by the delivery failure.
    await server.app.mailer.send({ to: 'ken@example.com', ...WELCOME })
    await server.app.mailer.idle()
    let [message] = await mailbox(server, 'ken@example.com')
    expect(message).toMatchObject({ sentAt: null, attempts: 1 })
    expect(message?.lastError).toMatch(/ECONNREFUSED/)

    // What the mailbox page would show, should the site later run without SMTP_URL.
    const page = renderMailbox(await listOutbox(server.database.db))
    expect(page).toContain('送信できていません（1 回試行）')
    for (const text of [JSON.stringify(message), page]) {
      expect(text).not.toContain(PASSWORD)
      expect(text).not.toContain(encodeURIComponent(PASSWORD))
    }

    // The SMTP server comes back; once the retry is due, the message goes out.
    const smtp = await smtpServer(port)
    expect(await server.app.mailer.retryDue()).toBe(0)
    await server.database.db
      .updateTable('mail_outbox')
      .set({ created_at: Date.now() - 60_000 })
      .where('to_address', '=', 'ken@example.com')
      .execute()
    // The retry loop may get there first; either way it goes out once.
    await server.app.mailer.retryDue()
    const [received] = await smtp.waitFor(1)
    await server.app.mailer.idle()
    expect(received?.text).toBe(WELCOME.text)
    ;[message] = await mailbox(server, 'ken@example.com')
    expect(message).toMatchObject({ attempts: 2, lastError: null })
    expect(message?.sentAt).toEqual(expect.any(Number))
  })

  it('closes cleanly with a delivery under way', async () => {
    const smtp = await smtpServer()
    const server = await startTestServer({ SMTP_URL: smtp.url })
    await server.app.mailer.send({ to: 'close@example.com', ...WELCOME })
    await server.close()
    expect(smtp.received.length).toBeLessThanOrEqual(1)
  })
})

describe('the development mailbox', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => {
    await server?.close()
  })

  it('shows in test mode what was sent, newest first, escaped, without SMTP', async () => {
    expect(server.app.mailer.delivers).toBe(false)
    await server.app.mailer.send({ to: 'aoi@example.com', subject: '最初', text: '一通目' })
    await server.app.mailer.send({
      to: 'aoi@example.com',
      subject: '<script>alert(1)</script> 二通目',
      text: 'コード：<b>777</b> & "ok"',
    })
    const response = await fetch(`${server.url}/dev/mailbox`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await response.text()
    expect(html).toContain('開発用メールボックス')
    expect(html).toContain('aoi@example.com')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; 二通目')
    expect(html).toContain('コード：&lt;b&gt;777&lt;/b&gt; &amp; &quot;ok&quot;')
    expect(html).not.toContain('<script>')
    expect(html.indexOf('二通目')).toBeLessThan(html.indexOf('最初'))
    expect(html).toContain('未送信（送信箱に保存）')

    const messages = await mailbox(server, 'AOI@example.com')
    expect(messages.map((message) => message.subject)).toEqual([
      '<script>alert(1)</script> 二通目',
      '最初',
    ])
    expect(messages[0]).toMatchObject({ sentAt: null, attempts: 0, createdAt: expect.any(Number) })
  })

  it('is served in production too while no mail is sent, to this machine only', async () => {
    const production = await siteServer({ NODE_ENV: 'production' })
    await production.app.mailer.send({ to: 'prod@example.com', subject: '本番', text: '本文' })
    const local = await fetch(`${production.url}/dev/mailbox`)
    expect(local.status).toBe(200)
    expect(await local.text()).toContain('prod@example.com')
    // Another address, or a request relayed by a proxy on this machine: nothing to see.
    for (const path of ['/dev/mailbox', '/dev/mailbox/messages.json?to=prod%40example.com']) {
      const elsewhere = await production.app.inject({ url: path, remoteAddress: '203.0.113.9' })
      expect(elsewhere.statusCode).toBe(404)
      expect(elsewhere.body).not.toContain('prod@example.com')
      const relayed = await fetch(`${production.url}${path}`, {
        headers: { 'x-forwarded-for': '203.0.113.9' },
      })
      expect(relayed.status).toBe(404)
      expect(await relayed.text()).not.toContain('prod@example.com')
    }
    const ipv6 = await production.app.inject({ url: '/dev/mailbox', remoteAddress: '::1' })
    expect(ipv6.statusCode).toBe(200)
    // A page whose DNS name was rebound to 127.0.0.1 asks under its own name: nothing to see.
    const port = new URL(production.url).port
    const under = (host: string, path = '/dev/mailbox/messages.json?to=prod%40example.com') =>
      rawRequest(
        production.url,
        `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      )
    for (const host of [
      `rebind.example:${port}`,
      'rebind.example',
      `localhost.rebind.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
    ]) {
      for (const path of ['/dev/mailbox', '/dev/mailbox/messages.json?to=prod%40example.com']) {
        const answer = await under(host, path)
        expect(statusOf(answer), host).toBe(404)
        expect(answer).not.toContain('prod@example.com')
      }
    }
    for (const host of [
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      'localhost',
    ]) {
      const answer = await under(host)
      expect(statusOf(answer), host).toBe(200)
      expect(answer).toContain('prod@example.com')
    }
    // The screens that ask for a code say where it is.
    for (const path of ['/auth/confirm', '/auth/forgotPasswordVerify']) {
      const screen = await (await fetch(`${production.url}${path}`)).text()
      expect(screen).toContain('data-dev-mailbox-note')
      expect(screen).toContain('href="/dev/mailbox"')
    }
  })

  it('does not exist once mail is sent (SMTP_URL): the paths are ordinary, missing pages', async () => {
    const smtp = await smtpServer()
    const production = await siteServer({ NODE_ENV: 'production', SMTP_URL: smtp.url })
    await production.app.mailer.send({ to: 'prod@example.com', subject: '本番', text: '本文' })
    for (const path of ['/dev/mailbox', '/dev/mailbox/messages.json?to=prod%40example.com']) {
      const response = await fetch(`${production.url}${path}`)
      expect(response.status).toBe(404)
      const html = await response.text()
      expect(html).toContain('This page could not be found')
      expect(html).not.toContain('prod@example.com')
      expect(html).not.toContain('開発用メールボックス')
    }
    for (const path of ['/auth/confirm', '/auth/forgotPasswordVerify']) {
      const screen = await (await fetch(`${production.url}${path}`)).text()
      expect(screen).not.toContain('data-dev-mailbox-note')
      expect(screen).not.toContain('/dev/mailbox')
    }
  })
})

describe('the server process', () => {
  it('never writes the SMTP password to its log, even when the SMTP server echoes it', async () => {
    const wrong = `${PASSWORD}-old`
    const smtp = await startTestSmtpServer({
      user: USER,
      password: PASSWORD,
      authError: (user, password) => `535 no such login ${user}:${password}`,
    })
    cleanups.push(() => smtp.close())
    // A message an earlier run left unsent: the new process retries it soon after start.
    const dataDir = await mkdtemp(path.join(tmpdir(), 'techlab-mail-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const database = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'techlab.sqlite') })
    await migrateToLatest(database.db)
    await enqueue(database.db, { to: 'left@example.com', ...WELCOME }, Date.now() - 60_000)
    await database.close()

    const url = `smtp://${USER}:${encodeURIComponent(wrong)}@127.0.0.1:${smtp.port}`
    const child = spawn(
      process.execPath,
      [path.resolve(import.meta.dirname, '../../server/main.ts')],
      {
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          LOG_LEVEL: 'info',
          HOST: '127.0.0.1',
          PORT: String(await closedPort()),
          DATA_DIR: dataDir,
          SMTP_URL: url,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let output = ''
    let failureLogged: () => void = () => {}
    const deliveryFailed = new Promise<void>((resolve) => {
      failureLogged = resolve
    })
    const collect = (chunk: Buffer) => {
      output += chunk
      if (output.includes('mail delivery failed')) failureLogged()
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    // Ended by a signal, a process has no exit code but a signal code: either means it is gone,
    // and waiting for an 'exit' already emitted would wait for ever.
    const ended = once(child, 'exit')
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await ended
    })
    // The log line, or the process's end (then the assertions below say what was missing).
    await Promise.race([deliveryFailed, ended])
    child.kill('SIGTERM')
    await ended
    expect(output).toContain('mail is delivered through SMTP')
    expect(output).toContain(`no such login ${USER}:***`)
    for (const secret of [
      wrong,
      encodeURIComponent(wrong),
      Buffer.from(wrong).toString('base64'),
      Buffer.from(`\0${USER}\0${wrong}`).toString('base64'),
    ]) {
      expect(output).not.toContain(secret)
    }
    // A whole server process starts (migrations, the demo seed) before it logs: a hang guard.
  }, 120_000)
})
