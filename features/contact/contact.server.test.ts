import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DB } from '#db/schema.ts'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import { insertTestUsers, refused } from '#features/content-test-support.ts'
import { listOutbox } from '#server/mail/outbox.ts'
import { memoryRateLimiter, type RateLimiter, redisRateLimiter } from '#server/rate-limiter.ts'
import { redisReachable, TEST_REDIS_URL } from '#tests/support/redis.ts'
import {
  adminEmails,
  type ContactLimits,
  listContactMessages,
  readContactMessage,
  replyToContactMessage,
  setContactMessageClosed,
  submitContactMessage,
} from './contact.server.ts'

const reachable = await redisReachable(TEST_REDIS_URL, 'contact.server.test')
const NOW = Date.UTC(2026, 10, 25, 9, 0, 0)
const ADMINS = ['boss', 'ops@techlab.example', 'unverified']
const admin = { userId: 'user-boss', username: 'boss' }
const form = {
  name: '山田 花子',
  email: 'hana@example.com',
  category: 'course',
  message: 'JavaScript 入門の第 3 章について質問です。',
}

describe.each(testEngines)('the contact form and inbox on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  let db: Kysely<DB>
  let limits: ContactLimits

  const submit = (input: Record<string, unknown>, clientAddress = '192.0.2.1', now = NOW) =>
    submitContactMessage(db, input, {
      clientAddress,
      limits,
      admins: ADMINS,
      baseUrl: 'https://techlab.example',
      now,
    })

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    db = database.db
    await insertTestUsers(db, ['boss', 'hana'], NOW)
    const account = (sub: string, username: string, email: string, verified: 0 | 1) => ({
      sub,
      username,
      email,
      email_verified: verified,
      status: 'CONFIRMED' as const,
      created_at: NOW,
      updated_at: NOW,
    })
    await db
      .insertInto('identity_users')
      .values([
        account('user-boss', 'boss', 'Boss@techlab.example', 1),
        account('user-unverified', 'unverified', 'nobody@techlab.example', 0),
      ])
      .execute()
  })
  afterAll(async () => {
    await database.remove()
  })
  beforeEach(async () => {
    await db.deleteFrom('contact_messages').execute()
    await db.deleteFrom('mail_outbox').execute()
    limits = { limiter: memoryRateLimiter(), messagesPerIpPerHour: 3, messagesPerEmailPerHour: 2 }
  })

  it('mails the admins: emails as written, usernames by their verified email only', async () => {
    expect((await adminEmails(db, ADMINS)).sort()).toEqual([
      'Boss@techlab.example',
      'ops@techlab.example',
    ])
  })

  it('stores a message and writes the admins’ mails and the sender’s confirmation', async () => {
    const result = await submit({ ...form, website: '' })
    expect(result.outcome).toBe('stored')
    if (result.outcome !== 'stored') return
    const mails = await listOutbox(db)
    expect(mails.map((mail) => mail.id).sort()).toEqual([...result.mailIds].sort())
    expect(mails.map((mail) => mail.to).sort()).toEqual([
      'Boss@techlab.example',
      'hana@example.com',
      'ops@techlab.example',
    ])
    const toAdmin = mails.find((mail) => mail.to === 'ops@techlab.example')
    expect(toAdmin?.subject).toBe('【テックラボ】お問い合わせ（講座について）: 山田 花子 様')
    expect(toAdmin?.text).toContain(`https://techlab.example/admin/contact/${result.id}`)
    const confirmation = mails.find((mail) => mail.to === 'hana@example.com')
    expect(confirmation?.subject).toBe('【テックラボ】お問い合わせを受け付けました')
    // A guest may have typed anyone's address: nothing they submitted goes back to it.
    expect(confirmation?.text).not.toContain(form.message)
    expect(confirmation?.text).not.toContain(form.name)
    const [listed] = await listContactMessages(db)
    expect(listed).toMatchObject({
      name: '山田 花子',
      status: 'new',
      categoryLabel: '講座について',
    })
  })

  it('repeats the message only to a signed-in sender at their own verified address', async () => {
    const confirmationFor = async (userId: string, email: string) => {
      const result = await submitContactMessage(
        db,
        { ...form, email },
        { userId, clientAddress: '192.0.2.9', limits, admins: [], baseUrl: 'https://x.example' },
      )
      if (result.outcome !== 'stored') throw new Error(result.outcome)
      const mails = await listOutbox(db)
      return mails.find((mail) => result.mailIds.includes(mail.id))?.text
    }
    expect(await confirmationFor('user-boss', 'boss@techlab.example')).toContain(form.message)
    // An account with no verified address on record: the address is only typed.
    expect(await confirmationFor('user-hana', 'hana@example.com')).not.toContain(form.message)
  })

  it('refuses invalid input with a Japanese message per field, storing nothing', async () => {
    const error = await refused(
      submit({ name: ' ', email: 'not-an-email', category: 'spam', message: '' }),
      'VALIDATION_FAILED',
    )
    expect(error.fields).toEqual({
      name: ['お名前を入力してください'],
      email: ['メールアドレスの形式が正しくありません'],
      category: ['お問い合わせの種類を選んでください'],
      message: ['お問い合わせ内容を入力してください'],
    })
    await refused(submit({ ...form, message: 'あ'.repeat(4001) }), 'VALIDATION_FAILED')
    expect(await listContactMessages(db)).toEqual([])
    expect(await listOutbox(db)).toEqual([])
  })

  it('drops what a bot sends through the honeypot without storing or mailing it', async () => {
    expect(await submit({ ...form, website: 'https://spam.example' })).toEqual({
      outcome: 'dropped',
    })
    expect(await listContactMessages(db)).toEqual([])
    expect(await listOutbox(db)).toEqual([])
  })

  it('limits messages per sender email and per client address', async () => {
    expect((await submit(form, '192.0.2.1')).outcome).toBe('stored')
    expect((await submit(form, '192.0.2.2')).outcome).toBe('stored')
    // A third from the same email, from yet another address.
    expect((await submit(form, '192.0.2.3')).outcome).toBe('limited')
    const other = (n: number) => ({ ...form, email: `other${n}@example.com` })
    expect((await submit(other(1), '198.51.100.7')).outcome).toBe('stored')
    expect((await submit(other(2), '198.51.100.7')).outcome).toBe('stored')
    expect((await submit(other(3), '198.51.100.7')).outcome).toBe('stored')
    expect((await submit(other(4), '198.51.100.7')).outcome).toBe('limited')
    expect(await listContactMessages(db)).toHaveLength(5)
  })

  it.skipIf(!reachable)('shares the limits between instances through Redis', async () => {
    // A prefix of this run's own, so earlier runs' counts in the shared Redis do not matter.
    const prefix = `techlab-test:contact:${engine}:${Date.now()}:`
    const instances: RateLimiter[] = [1, 2].map(() =>
      redisRateLimiter({ url: TEST_REDIS_URL, prefix }),
    )
    try {
      const via = (limiter: RateLimiter) => {
        limits = { limiter, messagesPerIpPerHour: 100, messagesPerEmailPerHour: 2 }
        return submit(form)
      }
      expect((await via(instances[0] as RateLimiter)).outcome).toBe('stored')
      expect((await via(instances[1] as RateLimiter)).outcome).toBe('stored')
      expect((await via(instances[0] as RateLimiter)).outcome).toBe('limited')
    } finally {
      await Promise.all(instances.map((limiter) => limiter.close()))
    }
  })

  it('takes the message when the limiter is unreachable, with a warning', async () => {
    // Nothing listens on port 1: every count fails.
    const limiter = redisRateLimiter({ url: 'redis://127.0.0.1:1' })
    const warnings: string[] = []
    try {
      const result = await submitContactMessage(db, form, {
        clientAddress: '192.0.2.1',
        limits: { limiter, messagesPerIpPerHour: 0, messagesPerEmailPerHour: 0 },
        admins: ADMINS,
        baseUrl: 'https://techlab.example',
        warn: (_details, message) => warnings.push(message),
        now: NOW,
      })
      expect(result.outcome).toBe('stored')
      expect(warnings).toEqual(['contact limiter unavailable; message not limited'])
    } finally {
      await limiter.close()
    }
  })

  it('writes neither the message nor any mail when the transaction fails', async () => {
    const before = await db.selectFrom('contact_messages').select('id').execute()
    await expect(
      submitContactMessage(db, form, {
        clientAddress: '192.0.2.9',
        limits,
        // Not a string: resolving the admins fails after the message row is written.
        admins: [null as unknown as string],
        baseUrl: 'https://techlab.example',
        now: NOW,
      }),
    ).rejects.toThrow()
    expect(await db.selectFrom('contact_messages').select('id').execute()).toEqual(before)
    expect(await listOutbox(db)).toEqual([])
  })

  it('lists newest first, filters by status, and keeps replies, closing and reopening with who and when', async () => {
    const first = await submit(form, '192.0.2.1', NOW)
    const second = await submit({ ...form, email: 'taro@example.com' }, '192.0.2.2', NOW + 1000)
    if (first.outcome !== 'stored' || second.outcome !== 'stored') throw new Error('not stored')
    expect((await listContactMessages(db)).map((message) => message.id)).toEqual([
      second.id,
      first.id,
    ])
    await db.deleteFrom('mail_outbox').execute()

    const [mailId] = await replyToContactMessage(
      db,
      admin,
      first.id,
      { body: '第 3 章の例題は付録にあります。' },
      NOW + 2000,
    )
    const [reply] = await listOutbox(db)
    expect(reply).toMatchObject({
      id: mailId,
      to: 'hana@example.com',
      subject: '【テックラボ】お問い合わせへの回答',
    })
    expect(reply?.text).toContain('第 3 章の例題は付録にあります。')
    expect((await listContactMessages(db, { status: 'answered' })).map((m) => m.id)).toEqual([
      first.id,
    ])
    expect((await listContactMessages(db, { status: 'new' })).map((m) => m.id)).toEqual([second.id])

    await setContactMessageClosed(db, admin, first.id, true, NOW + 3000)
    expect((await readContactMessage(db, first.id)).status).toBe('closed')
    await setContactMessageClosed(db, admin, first.id, false, NOW + 4000)
    await setContactMessageClosed(db, admin, second.id, true, NOW + 5000)
    await setContactMessageClosed(db, admin, second.id, false, NOW + 6000)
    const answered = await readContactMessage(db, first.id)
    expect(answered.status).toBe('answered')
    expect(
      answered.events.map(({ kind, actorName, createdAt }) => [kind, actorName, createdAt]),
    ).toEqual([
      ['reply', 'boss', NOW + 2000],
      ['closed', 'boss', NOW + 3000],
      ['reopened', 'boss', NOW + 4000],
    ])
    expect((await readContactMessage(db, second.id)).status).toBe('new')
  })

  it('refuses an empty reply and an unknown message', async () => {
    const sent = await submit(form)
    if (sent.outcome !== 'stored') throw new Error('not stored')
    await refused(replyToContactMessage(db, admin, sent.id, { body: '  ' }), 'VALIDATION_FAILED')
    await refused(replyToContactMessage(db, admin, 'missing', { body: 'はい' }), 'NOT_FOUND')
    await refused(readContactMessage(db, 'missing'), 'NOT_FOUND')
    expect((await readContactMessage(db, sent.id)).events).toEqual([])
  })
})
