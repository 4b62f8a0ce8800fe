import { spawn } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { openTestDatabase, testEngines } from '#db/test-support.ts'
import { createEmbeddedGateway } from '#server/payments/embedded-gateway.ts'
import { billingHistory } from './billing-history.server.ts'
import { clearBilling, insertHana, testPrices } from './billing-test-support.ts'
import { checkout } from './checkout.server.ts'
import { runDueRenewals } from './renewal.server.ts'
import { type Billing, findSubscription } from './subscription-records.server.ts'

/**
 * A renewal killed mid-pass, with a real SIGKILL: a renewal pass in another process is killed right after
 * the provider charged, or inside the transaction recording the charge; the next pass, here,
 * must neither charge twice nor lose the charge, and the killed process must leave nothing half
 * written (SQLite's WAL, PostgreSQL's rollback of the dead connection's transaction).
 */

const CHILD = path.join(import.meta.dirname, '../../tests/support/renewal-child.ts')
const DAY = 24 * 3600 * 1000
// 2026-11-25 10:00 JST; the first period ends a calendar month later, the renewal's a month after.
const START = Date.UTC(2026, 10, 25, 1, 0, 0)
const END = Date.UTC(2026, 11, 25, 1, 0, 0)
const NEXT_END = Date.UTC(2027, 0, 25, 1, 0, 0)
const STAGES = ['charged', 'recording'] as const

describe.each(testEngines)('a renewal killed with SIGKILL on %s', (engine) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    await insertHana(database.db, START)
  })
  afterAll(async () => {
    await database.remove()
  })
  beforeEach(async () => {
    await clearBilling(database.db)
  })

  const billingAt = (now: number): Billing => {
    const { db } = database
    return {
      db,
      now: () => now,
      gateway: createEmbeddedGateway(db, () => now),
      prices: testPrices,
    }
  }
  const subscribe = async (number: string) => {
    const result = await checkout(billingAt(START), {
      userId: 'user-hana',
      planId: 'premium-monthly',
      card: { number, expMonth: 12, expYear: 2030, cvc: '123', name: 'HANA YAMADA' },
      idempotencyKey: 'form-1',
    })
    expect(result.outcome).toBe('subscribed')
    expect((await findSubscription(database.db, 'user-hana'))?.currentPeriodEnd).toBe(END)
  }
  const providerCharges = () =>
    database.db.selectFrom('payment_gateway_charges').selectAll().execute()
  const renewalCharges = () =>
    database.db
      .selectFrom('charges')
      .selectAll()
      .where('kind', '=', 'renewal')
      .orderBy('created_at')
      .execute()
  const receipts = async () =>
    (await database.db.selectFrom('mail_outbox').selectAll().execute()).filter((mail) =>
      JSON.stringify(mail).includes('領収書'),
    )

  /** Runs a renewal pass at `now` in a child process and SIGKILLs it when it reaches `stage`. */
  async function killRenewalAt(stage: (typeof STAGES)[number], now: number) {
    const child = spawn(
      process.execPath,
      [CHILD, JSON.stringify(database.settings), String(now), stage],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    )
    // Ended by a signal, a process has no exit code but a signal code: 'exit' covers both.
    const exited = once(child, 'exit')
    const line = await Promise.race([
      once(createInterface({ input: child.stdout }), 'line').then(([text]) => String(text)),
      exited.then(() => 'exited before the kill'),
    ])
    child.kill('SIGKILL')
    await exited
    expect(line).toBe(stage)
    expect(child.signalCode).toBe('SIGKILL')
    if (database.kind === 'postgres') {
      // The server rolls the dead connection's transaction back when it sees the socket close;
      // waiting for its row lock (not skipping it, as the scheduler does) waits for exactly that.
      await database.db
        .transaction()
        .execute((trx) => trx.selectFrom('subscriptions').select('id').forUpdate().execute())
    } else {
      const { rows } = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(
        database.db,
      )
      expect(rows).toEqual([{ integrity_check: 'ok' }])
    }
  }

  it.each(STAGES)('killed at %s: the next pass renews once, with the one charge', async (stage) => {
    await subscribe('4242424242424242')
    const now = END + 60_000
    await killRenewalAt(stage, now)

    // The provider charged; we hold a pending charge and nothing else of the renewal: the
    // recording transaction, if it had begun, rolled back whole.
    expect(await providerCharges()).toHaveLength(2)
    expect((await renewalCharges()).map((charge) => charge.status)).toEqual(['pending'])
    expect(await findSubscription(database.db, 'user-hana')).toMatchObject({
      status: 'active',
      currentPeriodStart: START,
      currentPeriodEnd: END,
    })
    expect(await receipts()).toHaveLength(1)

    const billing = billingAt(now)
    expect(await runDueRenewals(billing)).toMatchObject({ renewed: 1, failed: 0, ended: 0 })

    const provider = await providerCharges()
    expect(provider).toHaveLength(2)
    const [renewal] = await renewalCharges()
    expect(await renewalCharges()).toHaveLength(1)
    expect(renewal).toMatchObject({
      status: 'succeeded',
      period_start: END,
      period_end: NEXT_END,
      gateway_charge: provider.find((charge) => charge.idempotency_key === renewal?.idempotency_key)
        ?.charge_id,
    })
    const history = await billingHistory(database.db, 'user-hana')
    expect(history.map((entry) => [entry.status, entry.receiptNumber])).toEqual([
      ['succeeded', renewal?.receipt_number],
      ['succeeded', expect.stringMatching(/^TL-/)],
    ])
    expect(await findSubscription(database.db, 'user-hana')).toMatchObject({
      status: 'active',
      currentPeriodStart: END,
      currentPeriodEnd: NEXT_END,
    })
    const mailed = await receipts()
    expect(mailed).toHaveLength(2)
    expect(
      mailed.filter((mail) => JSON.stringify(mail).includes(renewal?.receipt_number ?? '?')),
    ).toHaveLength(1)
    // Nothing is left for another pass.
    expect(await runDueRenewals(billing)).toMatchObject({ renewed: 0, failed: 0, ended: 0 })
    expect(await providerCharges()).toHaveLength(2)
  })

  it.each(STAGES)(
    'a past-due retry killed at %s is recorded by the next pass, even a day later',
    async (stage) => {
      // Saved at checkout, declined off-session: the renewal fails and is retried daily.
      await subscribe('4000000000000341')
      expect(await runDueRenewals(billingAt(END + 1))).toMatchObject({ failed: 1 })
      await killRenewalAt(stage, END + DAY + 1)
      expect(await providerCharges()).toHaveLength(3)
      expect((await renewalCharges()).map((charge) => charge.status)).toEqual(['failed', 'pending'])

      // The scheduler comes back the next day: it finishes the killed attempt rather than losing
      // it, and asks the provider nothing new.
      const nextDay = END + 2 * DAY + 2
      expect(await runDueRenewals(billingAt(nextDay))).toMatchObject({ failed: 1 })
      expect(await providerCharges()).toHaveLength(3)
      expect((await renewalCharges()).map((charge) => charge.status)).toEqual(['failed', 'failed'])
      expect((await billingHistory(database.db, 'user-hana')).map((entry) => entry.status)).toEqual(
        ['failed', 'failed', 'succeeded'],
      )
      expect(await findSubscription(database.db, 'user-hana')).toMatchObject({
        status: 'past_due',
        currentPeriodEnd: END,
        pastDueSince: END,
      })
      // Recorded as an attempt of this moment: the next waits a day, and the grace ends first.
      expect(await runDueRenewals(billingAt(nextDay + 1))).toMatchObject({ failed: 0 })
      expect(await runDueRenewals(billingAt(END + 3 * DAY))).toMatchObject({ ended: 1 })
      expect(await providerCharges()).toHaveLength(3)
    },
  )
})
