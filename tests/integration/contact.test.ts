import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedInCookie } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * The contact form and the admin inbox through the real pages: form posts as a browser without
 * JavaScript sends them, mails read back from the dev mailbox. TRUST_PROXY lets each test come
 * from its own client address (X-Forwarded-For), so the per-address limit is counted apart.
 */

let server: TestServer
let admin: string
let learner: string

beforeAll(async () => {
  server = await startTestServer({
    ADMIN_USERS: 'contact_boss',
    TRUST_PROXY: 'true',
    CONTACT_MESSAGES_PER_IP_PER_HOUR: '3',
    CONTACT_MESSAGES_PER_EMAIL_PER_HOUR: '2',
  })
  admin = await signedInCookie(server, 'contact_boss')
  learner = await signedInCookie(server, 'contact_learner')
})
afterAll(async () => {
  await server?.close()
})

type Mail = { to: string; subject: string; text: string }

async function mailbox(to: string): Promise<Mail[]> {
  const response = await fetch(
    `${server.url}/dev/mailbox/messages.json?to=${encodeURIComponent(to)}`,
  )
  return ((await response.json()) as { messages: Mail[] }).messages
}

let nextAddress = 10
const form = (email: string, extra: Record<string, string> = {}) => ({
  name: '山田 花子',
  email,
  category: 'bug',
  message: 'レッスンの動画が再生されません。',
  website: '',
  ...extra,
})

async function post(
  path: string,
  fields: Record<string, string>,
  options: { cookie?: string; ip?: string } = {},
) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': options.ip ?? `203.0.113.${nextAddress++}`,
      ...(options.cookie && { cookie: options.cookie }),
    },
    body: new URLSearchParams(fields).toString(),
  })
  return { response, html: await response.text() }
}

async function page(path: string, cookie?: string) {
  const response = await fetch(`${server.url}${path}`, {
    redirect: 'manual',
    headers: cookie ? { cookie } : {},
  })
  return { response, html: await response.text() }
}

describe('/contact', () => {
  it('shows the form with the schema’s constraints, and a signed-in sender’s email filled in', async () => {
    const guest = await page('/contact')
    expect(guest.response.status).toBe(200)
    expect(guest.html).toContain('name="name"')
    expect(guest.html).toMatch(
      /name="message"[^>]*maxLength="4000"|maxLength="4000"[^>]*name="message"/,
    )
    for (const label of ['講座について', '不具合の報告', 'お支払い', 'その他']) {
      expect(guest.html).toContain(label)
    }
    const signedIn = await page('/contact', learner)
    expect(signedIn.html).toContain('value="contact_learner@example.com"')
    expect(signedIn.response.headers.get('cache-control')).toBe('private, no-store')
  })

  it('stores a message, mails the admin and the sender, and shows the confirmation', async () => {
    const sent = await post('/contact', form('sender1@example.com'))
    expect(sent.response.status).toBe(302)
    expect(sent.response.headers.get('location')).toBe('/contact/sent')
    const confirmation = await page('/contact/sent')
    expect(confirmation.html).toContain('お問い合わせを受け付けました')

    // Anyone could have typed this address: the confirmation repeats nothing submitted.
    const [toSender] = await mailbox('sender1@example.com')
    expect(toSender?.subject).toBe('【テックラボ】お問い合わせを受け付けました')
    expect(toSender?.text).toContain('お問い合わせを受け付けました')
    expect(toSender?.text).not.toContain('レッスンの動画が再生されません。')
    expect(toSender?.text).not.toContain('山田')
    const toAdmin = (await mailbox('contact_boss@example.com')).find((mail) =>
      mail.subject.includes('お問い合わせ（不具合の報告）'),
    )
    expect(toAdmin?.text).toContain('sender1@example.com')
    expect(toAdmin?.text).toMatch(/\/admin\/contact\/[0-9a-f-]{36}/)
  })

  it('is no relay: a guest’s text reaches the typed address only as the admins’ message', async () => {
    const spam = form('victim@example.com', {
      name: 'https://spam.example/ 激安セール',
      message: '今すぐこちらへ: https://spam.example/buy',
    })
    expect((await post('/contact', spam)).response.status).toBe(302)
    const [toVictim, ...more] = await mailbox('victim@example.com')
    expect(more).toEqual([])
    expect(toVictim?.text).not.toContain('spam.example')
    expect(toVictim?.subject).not.toContain('spam.example')
    const toAdmin = (await mailbox('contact_boss@example.com')).find((mail) =>
      mail.text.includes('victim@example.com'),
    )
    expect(toAdmin?.text).toContain('今すぐこちらへ: https://spam.example/buy')
  })

  it('repeats the message to a signed-in sender only at their own verified address', async () => {
    const own = form('contact_learner@example.com', { message: '自分あての控えがほしいです。' })
    expect((await post('/contact', own, { cookie: learner })).response.status).toBe(302)
    const [copy] = await mailbox('contact_learner@example.com')
    expect(copy?.text).toContain('自分あての控えがほしいです。')
    expect(copy?.text).toContain('山田 花子 様')

    const elsewhere = form('someone-else@example.com', { message: '別の人あての控え' })
    expect((await post('/contact', elsewhere, { cookie: learner })).response.status).toBe(302)
    const [other] = await mailbox('someone-else@example.com')
    expect(other?.text).not.toContain('別の人あての控え')
  })

  it('answers invalid input with Japanese messages per field and stores nothing', async () => {
    const { response, html } = await post('/contact', {
      name: '',
      email: 'not-an-email',
      category: '',
      message: '',
    })
    expect(response.status).toBe(400)
    expect(html).toContain('お名前を入力してください')
    expect(html).toContain('メールアドレスの形式が正しくありません')
    expect(html).toContain('お問い合わせの種類を選んでください')
    expect(html).toContain('お問い合わせ内容を入力してください')
    expect(await mailbox('not-an-email')).toEqual([])
  })

  it('thanks a bot that fills the honeypot, but keeps and mails nothing', async () => {
    const { response } = await post(
      '/contact',
      form('bot@example.com', { website: 'http://spam.example' }),
    )
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/contact/sent')
    expect(await mailbox('bot@example.com')).toEqual([])
    const inbox = await page('/admin/contact', admin)
    expect(inbox.html).not.toContain('bot@example.com')
  })

  it('refuses past the hourly limit per sender email and per client address', async () => {
    expect((await post('/contact', form('often@example.com'))).response.status).toBe(302)
    expect((await post('/contact', form('often@example.com'))).response.status).toBe(302)
    const third = await post('/contact', form('often@example.com'))
    expect(third.response.status).toBe(429)
    expect(third.html).toContain('受け付けを一時停止しています')
    expect(await mailbox('often@example.com')).toHaveLength(2)

    const ip = '198.51.100.23'
    for (const n of [1, 2, 3]) {
      expect((await post('/contact', form(`ip${n}@example.com`), { ip })).response.status).toBe(302)
    }
    expect((await post('/contact', form('ip4@example.com'), { ip })).response.status).toBe(429)
    expect(await mailbox('ip4@example.com')).toEqual([])
  })
})

describe('/admin/contact', () => {
  it('is for admins only: guests sign in first, other users get 403', async () => {
    const guest = await page('/admin/contact')
    expect(guest.response.status).toBe(302)
    expect(guest.response.headers.get('location')).toContain('/auth/signin')
    expect((await page('/admin/contact', learner)).response.status).toBe(403)
    const refused = await page('/admin', learner)
    expect(refused.response.status).toBe(403)
    expect(refused.html).toContain('このページは管理者だけが見られます')
    const opened = await page('/admin', admin)
    expect(opened.response.status).toBe(302)
    expect(opened.response.headers.get('location')).toBe('/admin/contact')
    expect(
      (await post('/admin/contact/anything', { intent: 'close' }, { cookie: learner })).response
        .status,
    ).toBe(403)
  })

  it('lists messages, answers one by mail, records who and when, closes and reopens it', async () => {
    await post('/contact', form('asker@example.com', { message: '領収書を発行できますか？' }))
    const inbox = await page('/admin/contact?status=new', admin)
    expect(inbox.response.status).toBe(200)
    expect(inbox.response.headers.get('cache-control')).toBe('private, no-store')
    const id = /href="\/admin\/contact\/([0-9a-f-]{36})"/.exec(inbox.html)?.[1]
    expect(inbox.html).toContain('asker@example.com')
    if (!id) throw new Error('no message listed')

    const empty = await post(
      `/admin/contact/${id}`,
      { intent: 'reply', body: ' ' },
      { cookie: admin },
    )
    expect(empty.response.status).toBe(400)
    expect(empty.html).toContain('返信の本文を入力してください')

    const replied = await post(
      `/admin/contact/${id}`,
      { intent: 'reply', body: '設定画面から領収書をダウンロードできます。' },
      { cookie: admin },
    )
    expect(replied.response.status).toBe(200)
    const [reply] = await mailbox('asker@example.com')
    expect(reply?.subject).toBe('【テックラボ】お問い合わせへの回答')
    expect(reply?.text).toContain('設定画面から領収書をダウンロードできます。')

    const detail = await page(`/admin/contact/${id}`, admin)
    expect(detail.html).toContain('回答済み')
    expect(detail.html).toContain('設定画面から領収書をダウンロードできます。')
    expect(detail.html).toContain('contact_boss')
    const answered = await page('/admin/contact?status=answered', admin)
    expect(answered.html).toContain(id)
    // Only the chosen filter is marked current.
    const current = answered.html.match(/<a [^>]*aria-current="page"[^>]*>/g) ?? []
    expect(current.map((link) => /href="([^"]+)"/.exec(link)?.[1]).sort()).toEqual([
      '/admin/contact',
      '/admin/contact?status=answered',
    ])
    expect((await page('/admin/contact?status=new', admin)).html).not.toContain(id)

    await post(`/admin/contact/${id}`, { intent: 'close' }, { cookie: admin })
    expect((await page('/admin/contact?status=closed', admin)).html).toContain(id)
    await post(`/admin/contact/${id}`, { intent: 'reopen' }, { cookie: admin })
    const reopened = await page(`/admin/contact/${id}`, admin)
    expect(reopened.html).toContain('完了にしました')
    expect(reopened.html).toContain('対応中に戻しました')
    expect((await page('/admin/contact?status=answered', admin)).html).toContain(id)
  })
})

describe('the hourly window', () => {
  // Last in the file: moving the server's clock an hour on also ends the sessions above.
  it('takes a limited sender again once the hour has passed, dated by the server clock', async () => {
    expect((await post('/contact', form('often@example.com'))).response.status).toBe(429)
    server.clock.advance(60 * 60 * 1000)
    expect((await post('/contact', form('often@example.com'))).response.status).toBe(302)
    const row = await server.database.db
      .selectFrom('contact_messages')
      .select('created_at')
      .where('email', '=', 'often@example.com')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow()
    expect(Number(row.created_at)).toBeGreaterThanOrEqual(Date.now() + 59 * 60 * 1000)
  })
})
