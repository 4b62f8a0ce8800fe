import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DB } from '#db/schema.ts'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import { createEmbeddedGateway } from '#server/payments/embedded-gateway.ts'
import type { CardGateway } from '#server/payments/gateway.ts'
import { billingHistory } from './billing-history.server.ts'
import { clearBilling, insertHana, testPrices as prices } from './billing-test-support.ts'
import { checkout, completeAuthentication, retryAuthentication } from './checkout.server.ts'
import { currentPlan } from './plan.server.ts'
import { runDueRenewals } from './renewal.server.ts'
import { changeSubscription } from './subscription-changes.server.ts'
import { type Billing, findSubscription } from './subscription-records.server.ts'

const DAY = 24 * 3600 * 1000
// 2026-11-25 10:00 JST
const START = Date.UTC(2026, 10, 25, 1, 0, 0)
const card = (number: string) => ({
  number,
  expMonth: 12,
  expYear: 2030,
  cvc: '123',
  name: 'HANA YAMADA',
})

describe.each(testEngines)('subscriptions on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  let db: Kysely<DB>
  let now = START
  let billing: Billing

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    db = database.db
    await insertHana(db, START)
  })
  afterAll(async () => {
    await database.remove()
  })
  beforeEach(async () => {
    now = START
    billing = { db, prices, now: () => now, gateway: createEmbeddedGateway(db, () => now) }
    await clearBilling(db)
  })

  const subscribe = (number: string, key = 'form-1', planId = 'premium-monthly' as const) =>
    checkout(billing, { userId: 'user-hana', planId, card: card(number), idempotencyKey: key })
  const plan = () => currentPlan(db, 'user-hana', now)
  const mails = async () =>
    (await db.selectFrom('mail_outbox').select('subject').orderBy('created_at').execute()).map(
      (row) => row.subject,
    )

  it('subscribes with 4242…: premium at once, a receipt mailed and in the billing history', async () => {
    expect(await plan()).toBe('free')
    const result = await subscribe('4242424242424242')
    expect(result).toMatchObject({
      outcome: 'subscribed',
      receiptNumber: expect.stringMatching(/^TL-20261125-/),
    })
    expect(await plan()).toBe('premium')
    const history = await billingHistory(db, 'user-hana')
    expect(history).toEqual([
      expect.objectContaining({
        amountYen: 1078,
        taxYen: 98,
        card: 'Visa •••• 4242',
        status: 'succeeded',
      }),
    ])
    expect(await mails()).toEqual([expect.stringContaining('領収書')])
    const subscription = await findSubscription(db, 'user-hana')
    expect(subscription?.card).toEqual({
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2030,
    })
    // No card number anywhere: only the brand and last four digits are kept.
    for (const table of ['subscriptions', 'charges', 'payment_gateway_charges'] as const) {
      const rows = await db.selectFrom(table).selectAll().execute()
      expect(JSON.stringify(rows)).not.toContain('4242424242424242')
    }
  })

  it('charges once for a form submitted twice, even at the same moment', async () => {
    const [first, second] = await Promise.all([
      subscribe('4242424242424242'),
      subscribe('4242424242424242'),
    ])
    expect(first.outcome).toBe('subscribed')
    expect(second.outcome).toBe('subscribed')
    expect(await subscribe('4242424242424242')).toMatchObject({ outcome: 'subscribed' })
    expect(await db.selectFrom('payment_gateway_charges').selectAll().execute()).toHaveLength(1)
    expect(await billingHistory(db, 'user-hana')).toHaveLength(1)
    // A new form (a new key) while premium is refused rather than charged again.
    expect(await subscribe('4242424242424242', 'form-2')).toEqual({ outcome: 'already-subscribed' })
  })

  it.each([
    ['4000000000000002', 'カードが承認されませんでした'],
    ['4000000000009995', '残高が不足'],
    ['4111111111111111', 'テスト用のカードではありません'],
  ])('refuses %s with a Japanese message and stays free', async (number, message) => {
    const result = await subscribe(number)
    expect(result).toMatchObject({ outcome: 'failed', message: expect.stringContaining(message) })
    expect(await plan()).toBe('free')
    expect(await findSubscription(db, 'user-hana')).toBeUndefined()
  })

  it('asks 4000 0025 0000 3155 to authenticate; passing subscribes, failing does not', async () => {
    const pending = await subscribe('4000002500003155')
    expect(pending.outcome).toBe('requires-authentication')
    if (pending.outcome !== 'requires-authentication') return
    expect(await plan()).toBe('free')
    // Someone else cannot complete it.
    expect(
      (
        await completeAuthentication(billing, {
          userId: 'user-other',
          chargeId: pending.chargeId,
          passed: true,
        })
      ).outcome,
    ).toBe('failed')
    const done = await completeAuthentication(billing, {
      userId: 'user-hana',
      chargeId: pending.chargeId,
      passed: true,
    })
    expect(done.outcome).toBe('subscribed')
    expect(await plan()).toBe('premium')

    const second = await subscribe('4000002500003155', 'form-3')
    expect(second.outcome).toBe('already-subscribed')
  })

  it('a failed authentication says so and charges nothing', async () => {
    const pending = await subscribe('4000002500003155')
    if (pending.outcome !== 'requires-authentication') throw new Error('expected authentication')
    const failed = await completeAuthentication(billing, {
      userId: 'user-hana',
      chargeId: pending.chargeId,
      passed: false,
    })
    expect(failed).toMatchObject({
      outcome: 'failed',
      message: expect.stringContaining('本人認証'),
    })
    expect(await plan()).toBe('free')
  })

  it('after a failed authentication the learner authenticates again with the same card, once per click', async () => {
    const pending = await subscribe('4000002500003155')
    if (pending.outcome !== 'requires-authentication') throw new Error('expected authentication')
    const input = { userId: 'user-hana', chargeId: pending.chargeId }
    await completeAuthentication(billing, { ...input, passed: false })
    // Answering the old step again changes nothing: that attempt has failed.
    expect((await completeAuthentication(billing, { ...input, passed: true })).outcome).toBe(
      'failed',
    )
    // Someone else cannot start another attempt of it.
    expect((await retryAuthentication(billing, { ...input, userId: 'user-other' })).outcome).toBe(
      'failed',
    )
    const again = await retryAuthentication(billing, input)
    const twice = await retryAuthentication(billing, input)
    expect(again.outcome).toBe('requires-authentication')
    if (again.outcome !== 'requires-authentication') return
    expect(again.chargeId).not.toBe(pending.chargeId)
    expect(twice).toEqual(again)
    const done = await completeAuthentication(billing, {
      userId: 'user-hana',
      chargeId: again.chargeId,
      passed: true,
    })
    expect(done.outcome).toBe('subscribed')
    expect(await plan()).toBe('premium')
    expect((await billingHistory(db, 'user-hana')).map((entry) => entry.status).sort()).toEqual([
      'failed',
      'succeeded',
    ])
    // The failed attempt cannot start a second subscription.
    expect((await retryAuthentication(billing, input)).outcome).toBe('subscribed')
  })

  it('cancel keeps premium to the end of the period, then free; resume before the end keeps it', async () => {
    await subscribe('4242424242424242')
    const subscription = await findSubscription(db, 'user-hana')
    const end = subscription?.currentPeriodEnd ?? 0
    // One calendar month later, same time of day in Japan.
    expect(end).toBe(Date.UTC(2026, 11, 25, 1, 0, 0))

    await changeSubscription(billing, 'user-hana', { action: 'cancel' })
    now = end - DAY
    expect(await plan()).toBe('premium')
    await changeSubscription(billing, 'user-hana', { action: 'resume' })
    await changeSubscription(billing, 'user-hana', { action: 'cancel' })

    now = end + 1
    expect(await runDueRenewals(billing)).toMatchObject({ ended: 1, renewed: 0 })
    expect(await plan()).toBe('free')
    expect((await findSubscription(db, 'user-hana'))?.status).toBe('canceled')
    await expect(changeSubscription(billing, 'user-hana', { action: 'resume' })).rejects.toThrow(
      '期間が終わる前',
    )
    // Only the first charge: ending charges nothing.
    expect(await billingHistory(db, 'user-hana')).toHaveLength(1)
  })

  it('renews at the period end with the plan switched to, and mails a receipt', async () => {
    await subscribe('4242424242424242')
    await changeSubscription(billing, 'user-hana', { action: 'switch', planId: 'premium-yearly' })
    const end = (await findSubscription(db, 'user-hana'))?.currentPeriodEnd ?? 0
    now = end - 1
    expect(await runDueRenewals(billing)).toMatchObject({ renewed: 0 })
    now = end + 60_000
    expect(await runDueRenewals(billing)).toMatchObject({ renewed: 1 })
    const renewed = await findSubscription(db, 'user-hana')
    expect(renewed).toMatchObject({
      status: 'active',
      planId: 'premium-yearly',
      nextPlanId: null,
      currentPeriodStart: end,
      currentPeriodEnd: Date.UTC(2027, 11, 25, 1, 0, 0),
    })
    const history = await billingHistory(db, 'user-hana')
    expect(history.map((entry) => entry.amountYen)).toEqual([10_780, 1078])
    expect(await mails()).toHaveLength(2)
    // A second pass at the same moment does nothing more.
    expect(await runDueRenewals(billing)).toMatchObject({ renewed: 0, failed: 0, ended: 0 })
  })

  it('a failed renewal is past due for 3 days of premium, retried daily, then free', async () => {
    await subscribe('4000000000000341')
    const end = (await findSubscription(db, 'user-hana'))?.currentPeriodEnd ?? 0
    now = end + 1
    expect(await runDueRenewals(billing)).toMatchObject({ failed: 1 })
    expect((await findSubscription(db, 'user-hana'))?.status).toBe('past_due')
    expect(await plan()).toBe('premium')
    expect(await mails()).toEqual([
      expect.stringContaining('領収書'),
      expect.stringContaining('お支払いができませんでした'),
    ])
    now = end + DAY / 2
    expect(await runDueRenewals(billing)).toMatchObject({ failed: 0 })
    now = end + DAY + 2
    expect(await runDueRenewals(billing)).toMatchObject({ failed: 1 })
    now = end + 3 * DAY + 1
    expect(await plan()).toBe('free')
    expect(await runDueRenewals(billing)).toMatchObject({ ended: 1 })
    expect((await findSubscription(db, 'user-hana'))?.status).toBe('canceled')
    expect((await mails()).at(-1)).toContain('終了しました')
    const failed = (await billingHistory(db, 'user-hana')).filter(
      (entry) => entry.status === 'failed',
    )
    expect(failed).toHaveLength(2)
  })

  it('a renewal interrupted after the provider charged neither charges twice nor loses the charge', async () => {
    await subscribe('4242424242424242')
    const end = (await findSubscription(db, 'user-hana'))?.currentPeriodEnd ?? 0
    now = end + 1
    const real = createEmbeddedGateway(db, () => now)
    // The process dies right after the provider made the charge, before we recorded it.
    const dying: CardGateway = {
      ...real,
      charge: async (request) => {
        await real.charge(request)
        throw new Error('killed')
      },
    }
    await expect(runDueRenewals({ ...billing, gateway: dying })).rejects.toThrow('killed')
    expect(await db.selectFrom('payment_gateway_charges').selectAll().execute()).toHaveLength(2)
    // The next pass (another instance, or after restart) finishes it with the same key.
    expect(await runDueRenewals(billing)).toMatchObject({ renewed: 1 })
    expect(await db.selectFrom('payment_gateway_charges').selectAll().execute()).toHaveLength(2)
    expect(
      (await billingHistory(db, 'user-hana')).filter((entry) => entry.status === 'succeeded'),
    ).toHaveLength(2)
  })

  it('two scheduler passes at once renew once', async () => {
    await subscribe('4242424242424242')
    now = ((await findSubscription(db, 'user-hana'))?.currentPeriodEnd ?? 0) + 1
    const reports = await Promise.all([runDueRenewals(billing), runDueRenewals(billing)])
    expect(reports.reduce((sum, report) => sum + report.renewed, 0)).toBe(1)
    expect(await db.selectFrom('payment_gateway_charges').selectAll().execute()).toHaveLength(2)
  })
})
