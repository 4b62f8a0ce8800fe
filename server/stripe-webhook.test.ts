import Fastify, { type FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DB } from '#db/schema.ts'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import { billingHistory } from '#features/plans/billing-history.server.ts'
import { insertHana } from '#features/plans/billing-test-support.ts'
import { openBillingPortal, startHostedCheckout } from '#features/plans/hosted-billing.server.ts'
import { currentPlan } from '#features/plans/plan.server.ts'
import { planPrice } from '#features/plans/plan-catalogue.ts'
import { runDueRenewals } from '#features/plans/renewal.server.ts'
import { type Billing, findSubscription } from '#features/plans/subscription-records.server.ts'
import { GRACE_MS } from '#features/plans/subscription-state.ts'
import {
  STRIPE_MONTH_S,
  type SubscriptionFields,
  signedDelivery,
  stripeEvent,
  stripeInvoice,
  stripeSubscription,
} from '#tests/support/stripe-events.ts'
import { type StripeStandIn, startStripeStandIn } from '#tests/support/stripe-stand-in.ts'
import { createMailer } from './mail/create-mailer.ts'
import { createEmbeddedGateway } from './payments/embedded-gateway.ts'
import type { HostedGateway } from './payments/gateway.ts'
import { createStripeGateway } from './payments/stripe-gateway.ts'
import { serializeRequest } from './request-log.ts'
import { registerStripeWebhook, STRIPE_WEBHOOK_PATH } from './stripe-webhook.ts'

// Stripe mode's webhook (decision 040) on both engines: deliveries signed with
// the `stripe` package's own test helper, against the real route, the real verification and the
// real database; the calls we make to Stripe go to a local stand-in that records them.

const SECRET = 'whsec_standin0123456789'
const PRICES = { 'premium-monthly': 'price_monthly_test', 'premium-yearly': 'price_yearly_test' }
// 2026-11-25 10:00 JST, in Stripe's seconds.
const T0 = Date.UTC(2026, 10, 25, 1, 0, 0) / 1000
const MONTH = STRIPE_MONTH_S

function subscriptionObject(fields: Partial<SubscriptionFields> = {}) {
  return stripeSubscription({
    price: PRICES['premium-monthly'],
    start: T0,
    userId: 'user-hana',
    ...fields,
  })
}

function invoiceObject(fields: { id: string; reason: string; start: number; paid: boolean }) {
  return stripeInvoice({ ...fields, price: PRICES['premium-monthly'], userId: 'user-hana' })
}

const event = stripeEvent

describe.each(testEngines)('the Stripe webhook on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  let db: Kysely<DB>
  let app: FastifyInstance
  let standIn: StripeStandIn
  let billing: Billing
  let gateway: HostedGateway
  const now = T0 * 1000 + 1000

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    db = database.db
    standIn = await startStripeStandIn()
    await insertHana(db, now)
    gateway = createStripeGateway({
      secretKey: 'sk_test_standin',
      webhookSecret: SECRET,
      prices: PRICES,
      api: standIn.api,
    })
    billing = {
      db,
      gateway,
      now: () => now,
      prices: {
        'premium-monthly': planPrice('premium-monthly', 980),
        'premium-yearly': planPrice('premium-yearly', 9800),
      },
    }
    app = Fastify({ logger: false })
    const mail = createMailer({
      db,
      smtpUrl: undefined,
      from: 'no-reply@techlab.example',
      log: app.log,
      now: () => now,
    })
    registerStripeWebhook(app, { billing, gateway, mail })
    await app.ready()
  })
  afterAll(async () => {
    await app.close()
    await standIn.close()
    await database.remove()
  })
  beforeEach(async () => {
    await db.deleteFrom('subscriptions').execute()
    await db.deleteFrom('charges').execute()
    await db.deleteFrom('payment_webhook_events').execute()
    await db.deleteFrom('mail_outbox').execute()
    standIn.requests.length = 0
    standIn.subscriptions.clear()
  })

  async function deliver(body: object, secret = SECRET) {
    const { payload, signature: header } = signedDelivery(body, secret)
    return app.inject({
      method: 'POST',
      url: STRIPE_WEBHOOK_PATH,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload,
    })
  }

  async function row() {
    return db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', 'user-hana')
      .executeTakeFirst()
  }

  it('applies a signed subscription event: premium at once, with Stripe’s period', async () => {
    const response = await deliver(
      event('evt_1', 'customer.subscription.created', T0, subscriptionObject()),
    )
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ received: true, outcome: 'applied' })
    expect(await findSubscription(db, 'user-hana')).toMatchObject({
      status: 'active',
      planId: 'premium-monthly',
      gateway: 'stripe',
      gatewayCustomer: 'cus_1',
      currentPeriodStart: T0 * 1000,
      currentPeriodEnd: (T0 + MONTH) * 1000,
    })
    expect(await currentPlan(db, 'user-hana', now)).toBe('premium')
  })

  it('a replayed event changes nothing', async () => {
    const created = event('evt_1', 'customer.subscription.created', T0, subscriptionObject())
    await deliver(created)
    const canceled = event(
      'evt_2',
      'customer.subscription.updated',
      T0 + 60,
      subscriptionObject({ cancelAtPeriodEnd: true }),
    )
    expect((await deliver(canceled)).json()).toMatchObject({ outcome: 'applied' })
    const before = await row()
    // The same delivery again, and the first one again after the customer resumed in the portal.
    const resumed = event('evt_3', 'customer.subscription.updated', T0 + 120, subscriptionObject())
    await deliver(resumed)
    const afterResume = await row()
    expect(afterResume?.status).toBe('active')
    const replay = await deliver(canceled)
    expect(replay.statusCode).toBe(200)
    expect(replay.json()).toMatchObject({ outcome: 'duplicate' })
    expect(await row()).toEqual(afterResume)
    expect(before?.status).toBe('cancel_at_period_end')
    expect(await db.selectFrom('payment_webhook_events').selectAll().execute()).toHaveLength(3)
  })

  it('refuses a wrong or missing signature with 400, and nothing changes', async () => {
    const body = event('evt_1', 'customer.subscription.created', T0, subscriptionObject())
    const forged = await deliver(body, 'whsec_someoneelse')
    expect(forged.statusCode).toBe(400)
    expect(forged.json()).toEqual({
      error: { code: 'BAD_SIGNATURE', message: '署名を確認できませんでした' },
    })
    const unsigned = await app.inject({
      method: 'POST',
      url: STRIPE_WEBHOOK_PATH,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    })
    expect(unsigned.statusCode).toBe(400)
    // Signed, then altered on the way: the signature covers the exact bytes.
    const { payload, signature: header } = signedDelivery(body, SECRET)
    const altered = await app.inject({
      method: 'POST',
      url: STRIPE_WEBHOOK_PATH,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload: payload.replace('user-hana', 'user-else'),
    })
    expect(altered.statusCode).toBe(400)
    expect(await row()).toBeUndefined()
    expect(await db.selectFrom('payment_webhook_events').selectAll().execute()).toEqual([])
    // The genuine delivery still applies afterwards (the refusals recorded nothing).
    expect((await deliver(body)).json()).toMatchObject({ outcome: 'applied' })
  })

  it('updated before created ends in the newer state', async () => {
    const updated = event(
      'evt_2',
      'customer.subscription.updated',
      T0 + 60,
      subscriptionObject({ cancelAtPeriodEnd: true }),
    )
    const created = event('evt_1', 'customer.subscription.created', T0, subscriptionObject())
    expect((await deliver(updated)).json()).toMatchObject({ outcome: 'applied' })
    expect((await deliver(created)).json()).toMatchObject({ outcome: 'stale' })
    expect((await row())?.status).toBe('cancel_at_period_end')
    expect(await currentPlan(db, 'user-hana', now)).toBe('premium')
    expect(await currentPlan(db, 'user-hana', (T0 + MONTH) * 1000)).toBe('free')
  })

  it('deleted before updated stays canceled, even within the same second', async () => {
    await deliver(event('evt_1', 'customer.subscription.created', T0, subscriptionObject()))
    const deleted = event(
      'evt_3',
      'customer.subscription.deleted',
      T0 + 60,
      subscriptionObject({ status: 'canceled' }),
    )
    const older = event(
      'evt_2',
      'customer.subscription.updated',
      T0 + 30,
      subscriptionObject({ cancelAtPeriodEnd: true }),
    )
    const sameSecond = event(
      'evt_4',
      'customer.subscription.updated',
      T0 + 60,
      subscriptionObject(),
    )
    expect((await deliver(deleted)).json()).toMatchObject({ outcome: 'applied' })
    expect((await deliver(older)).json()).toMatchObject({ outcome: 'stale' })
    expect((await deliver(sameSecond)).json()).toMatchObject({ outcome: 'stale' })
    expect((await row())?.status).toBe('canceled')
    expect(await currentPlan(db, 'user-hana', now)).toBe('free')
  })

  it('invoice.payment_failed makes it past due (premium through the grace), invoice.paid ends it', async () => {
    await deliver(event('evt_1', 'customer.subscription.created', T0, subscriptionObject()))
    const renewal = T0 + MONTH
    const failed = event(
      'evt_2',
      'invoice.payment_failed',
      renewal + 10,
      invoiceObject({ id: 'in_2', reason: 'subscription_cycle', start: renewal, paid: false }),
    )
    expect((await deliver(failed)).json()).toMatchObject({ outcome: 'applied' })
    expect(await findSubscription(db, 'user-hana')).toMatchObject({
      status: 'past_due',
      pastDueSince: renewal * 1000,
      currentPeriodEnd: (renewal + MONTH) * 1000,
    })
    expect(await currentPlan(db, 'user-hana', renewal * 1000 + GRACE_MS - 1)).toBe('premium')
    expect(await currentPlan(db, 'user-hana', renewal * 1000 + GRACE_MS)).toBe('free')
    // Stripe's retry succeeds: active again, and a receipt in the billing history.
    const paid = event(
      'evt_3',
      'invoice.paid',
      renewal + 86_400,
      invoiceObject({ id: 'in_2', reason: 'subscription_cycle', start: renewal, paid: true }),
    )
    expect((await deliver(paid)).json()).toMatchObject({ outcome: 'applied' })
    expect(await findSubscription(db, 'user-hana')).toMatchObject({
      status: 'active',
      pastDueSince: null,
    })
    const history = await billingHistory(db, 'user-hana')
    expect(history).toMatchObject([
      {
        planId: 'premium-monthly',
        amountYen: 1078,
        taxYen: 98,
        status: 'succeeded',
        card: 'カード',
      },
    ])
    expect(history[0]?.receiptNumber).toMatch(/^TL-\d{8}-[0-9A-F]{10}$/)
    const mails = await db
      .selectFrom('mail_outbox')
      .select(['to_address', 'subject', 'text_body'])
      .execute()
    expect(mails[0]?.text_body).toContain('金額: 1,078円（うち消費税 98円）')
    expect(mails[0]?.text_body).toContain('お支払い方法: カード\n')
    expect(mails.map(({ to_address, subject }) => ({ to_address, subject }))).toEqual([
      {
        to_address: 'hana@techlab.example',
        subject: `【テックラボ】領収書 ${history[0]?.receiptNumber}`,
      },
    ])
    // A second delivery of the invoice (another event about it) writes no second receipt.
    await deliver({ ...paid, id: 'evt_4' })
    expect(await billingHistory(db, 'user-hana')).toHaveLength(1)
  })

  it('the same delivery twice at once applies once', async () => {
    await deliver(event('evt_1', 'customer.subscription.created', T0, subscriptionObject()))
    const paid = event(
      'evt_2',
      'invoice.paid',
      T0 + 5,
      invoiceObject({ id: 'in_1', reason: 'subscription_create', start: T0, paid: true }),
    )
    const answers = await Promise.all([deliver(paid), deliver(paid)])
    expect(answers.map((answer) => answer.json().outcome).sort()).toEqual(['applied', 'duplicate'])
    expect(await billingHistory(db, 'user-hana')).toMatchObject([{ status: 'succeeded' }])
    expect(await db.selectFrom('mail_outbox').selectAll().execute()).toHaveLength(1)
  })

  it('no renewal scheduler charges a Stripe subscription: Stripe renews it and tells us', async () => {
    await deliver(event('evt_1', 'customer.subscription.created', T0, subscriptionObject()))
    const before = await row()
    const later = () => (T0 + MONTH) * 1000 + 1
    expect(await runDueRenewals({ ...billing, now: later })).toMatchObject({ renewed: 0, ended: 0 })
    // Nor the embedded gateway's, after a switch back to it.
    const embedded = { ...billing, now: later, gateway: createEmbeddedGateway(db, later) }
    expect(await runDueRenewals(embedded)).toMatchObject({ renewed: 0, failed: 0, ended: 0 })
    expect(await row()).toEqual(before)
  })

  it('logs what happened, never the signature or a secret', async () => {
    const lines: string[] = []
    const logged = Fastify({
      logger: {
        level: 'info',
        serializers: { req: serializeRequest },
        stream: { write: (line: string) => lines.push(line) },
      },
    })
    const mail = createMailer({
      db,
      smtpUrl: undefined,
      from: 'no-reply@techlab.example',
      log: logged.log,
    })
    registerStripeWebhook(logged, { billing, gateway, mail })
    const body = event('evt_logged', 'customer.subscription.created', T0, subscriptionObject())
    for (const secret of [SECRET, 'whsec_someoneelse']) {
      const { payload, signature } = signedDelivery(body, secret)
      await logged.inject({
        method: 'POST',
        url: STRIPE_WEBHOOK_PATH,
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload,
      })
      expect(lines.join('')).not.toContain(signature.split(',')[1] ?? signature)
    }
    await logged.close()
    const text = lines.join('')
    expect(text).toContain('"event":"evt_logged"')
    expect(text).toContain('the signature does not match')
    for (const secret of [SECRET, 'whsec_someoneelse', 'sk_test_standin']) {
      expect(text).not.toContain(secret)
    }
  })

  it('checkout.session.completed fetches the subscription (with its card) from Stripe', async () => {
    standIn.subscriptions.set(
      'sub_1',
      subscriptionObject({
        price: PRICES['premium-yearly'],
        end: T0 + 365 * 24 * 3600,
        paymentMethod: {
          id: 'pm_1',
          object: 'payment_method',
          card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
        },
      }),
    )
    const completed = event('evt_1', 'checkout.session.completed', T0, {
      id: 'cs_1',
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: 'user-hana',
      customer: 'cus_1',
      subscription: 'sub_1',
    })
    expect((await deliver(completed)).json()).toMatchObject({ outcome: 'applied' })
    const [fetched] = standIn.requests
    expect(standIn.requests).toHaveLength(1)
    expect(fetched).toMatchObject({ method: 'GET', path: '/v1/subscriptions/sub_1' })
    expect(fetched?.query.get('expand[0]')).toBe('default_payment_method')
    expect(fetched?.headers.authorization).toBe('Bearer sk_test_standin')
    expect(await findSubscription(db, 'user-hana')).toMatchObject({
      status: 'active',
      planId: 'premium-yearly',
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
    })
    // A replay is answered from our record: Stripe is not asked again.
    expect((await deliver(completed)).json()).toMatchObject({ outcome: 'duplicate' })
    expect(standIn.requests).toHaveLength(1)
  })

  it('sends Checkout and portal sessions with our user, price, customer and return URLs', async () => {
    const first = await startHostedCheckout(billing, {
      userId: 'user-hana',
      email: 'hana@techlab.example',
      planId: 'premium-monthly',
      idempotencyKey: 'form-1',
      plansUrl: 'https://learn.example.jp/plans',
    })
    expect(first).toEqual({
      outcome: 'redirect',
      url: `${standIn.url}/checkout/cs_test_standin1`,
    })
    const [checkoutRequest] = standIn.requests
    expect(checkoutRequest).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' })
    expect(checkoutRequest?.headers['idempotency-key']).toBe('checkout:user-hana:form-1')
    expect(checkoutRequest?.form).toEqual({
      mode: 'subscription',
      'line_items[0][price]': 'price_monthly_test',
      'line_items[0][quantity]': '1',
      client_reference_id: 'user-hana',
      customer_email: 'hana@techlab.example',
      'subscription_data[metadata][user_id]': 'user-hana',
      success_url: 'https://learn.example.jp/plans?checkout=success',
      cancel_url: 'https://learn.example.jp/plans?checkout=canceled',
      locale: 'ja',
    })

    // Subscribed, then ended: the next checkout reuses the customer Stripe already has.
    await deliver(event('evt_1', 'customer.subscription.created', T0, subscriptionObject()))
    expect(
      await startHostedCheckout(billing, {
        userId: 'user-hana',
        email: 'hana@techlab.example',
        planId: 'premium-yearly',
        idempotencyKey: 'form-2',
        plansUrl: 'https://learn.example.jp/plans',
      }),
    ).toEqual({ outcome: 'already-subscribed' })
    expect(standIn.requests).toHaveLength(1)
    const portal = await openBillingPortal(billing, 'user-hana', 'https://learn.example.jp/plans')
    expect(portal?.url).toBe(`${standIn.url}/portal/bps_standin2`)
    expect(standIn.requests[1]).toMatchObject({
      method: 'POST',
      path: '/v1/billing_portal/sessions',
      form: { customer: 'cus_1', return_url: 'https://learn.example.jp/plans', locale: 'ja' },
    })
    await deliver(
      event(
        'evt_2',
        'customer.subscription.deleted',
        T0 + 60,
        subscriptionObject({ status: 'canceled' }),
      ),
    )
    await startHostedCheckout(billing, {
      userId: 'user-hana',
      email: 'hana@techlab.example',
      planId: 'premium-yearly',
      idempotencyKey: 'form-3',
      plansUrl: 'https://learn.example.jp/plans',
    })
    expect(standIn.requests[2]?.form).toMatchObject({
      customer: 'cus_1',
      'line_items[0][price]': 'price_yearly_test',
    })
    expect(standIn.requests[2]?.form).not.toHaveProperty('customer_email')
  })
})
