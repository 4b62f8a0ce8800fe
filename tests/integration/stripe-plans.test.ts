import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedInCookie } from '#tests/support/signed-in-user.ts'
import {
  deliverStripeEvent,
  stripeEvent,
  stripeSubscription,
} from '#tests/support/stripe-events.ts'
import { type StripeStandIn, startStripeStandIn } from '#tests/support/stripe-stand-in.ts'
import { configuredAddress, startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * Stripe mode (PAYMENT_GATEWAY=stripe, decision 040) through the real server and pages, as a
 * browser without JavaScript posts forms: /plans offers Stripe Checkout, its POST answers 303 to
 * the Checkout Session's URL (from a local stand-in of Stripe's API), a signed webhook over HTTP
 * makes the learner premium, and the portal replaces the in-app cancel/switch forms.
 */

const SECRET = 'whsec_integration0123'
let server: TestServer
let standIn: StripeStandIn
let learner: string
let learnerId: string

beforeAll(async () => {
  standIn = await startStripeStandIn()
  server = await startTestServer({
    ...(await configuredAddress()),
    PAYMENT_GATEWAY: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_integration',
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_PRICE_PREMIUM_MONTHLY: 'price_monthly_it',
    STRIPE_PRICE_PREMIUM_YEARLY: 'price_yearly_it',
    STRIPE_API_URL: standIn.url,
  })
  learner = await signedInCookie(server, 'stripe_learner')
  const user = await server.database.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'stripe_learner')
    .executeTakeFirstOrThrow()
  learnerId = user.id
})
afterAll(async () => {
  await server?.close()
  await standIn?.close()
})

async function page(path: string, cookie?: string) {
  const response = await fetch(`${server.url}${path}`, {
    redirect: 'manual',
    headers: cookie ? { cookie } : {},
  })
  return { response, html: await response.text() }
}

async function post(path: string, fields: Record<string, string>, cookie: string) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: server.url,
      cookie,
    },
    body: new URLSearchParams(fields).toString(),
  })
}

const webhook = (body: object, secret = SECRET) => deliverStripeEvent(server.url, body, secret)

const checkoutKeyOf = (html: string) => /name="checkoutKey" value="([0-9a-f-]{36})"/.exec(html)?.[1]

describe('/plans in Stripe mode', () => {
  it('offers Stripe Checkout, never the embedded card form', async () => {
    const guest = await page('/plans')
    expect(guest.response.status).toBe(200)
    expect(guest.html).toContain('/auth/signin?redirectTo=')
    expect(guest.html).not.toContain('name="checkoutKey"')

    const signedIn = await page('/plans', learner)
    expect(signedIn.html).toContain('name="intent" value="checkout"')
    expect(signedIn.html).toContain('月額で申し込む')
    expect(signedIn.html).not.toContain('/plans/checkout?')
    // The card form's page sends Stripe-mode learners back to /plans.
    const form = await page('/plans/checkout?plan=premium-monthly', learner)
    expect(form.response.status).toBe(302)
    expect(form.response.headers.get('location')).toBe('/plans')
  })

  it('the subscribe POST answers 303 to the Checkout Session; a webhook then makes premium', async () => {
    const { html } = await page('/plans', learner)
    const checkoutKey = checkoutKeyOf(html) ?? ''
    const fields = { intent: 'checkout', planId: 'premium-yearly', checkoutKey }
    const response = await post('/plans', fields, learner)
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe(`${standIn.url}/checkout/cs_test_standin1`)
    const sent = standIn.requests.at(-1)
    expect(sent?.path).toBe('/v1/checkout/sessions')
    expect(sent?.form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_yearly_it',
      client_reference_id: learnerId,
      customer_email: 'stripe_learner@example.com',
      success_url: `${server.url}/plans?checkout=success`,
      cancel_url: `${server.url}/plans?checkout=canceled`,
    })
    // A double click sends the same key: Stripe answers the same session.
    await post('/plans', fields, learner)
    expect(standIn.requests.at(-1)?.headers['idempotency-key']).toBe(
      sent?.headers['idempotency-key'],
    )

    const back = await page('/plans?checkout=success', learner)
    expect(back.html).toContain('お支払いが確認でき次第')

    const start = Math.floor(server.clock.now() / 1000)
    const subscription = stripeSubscription({
      id: 'sub_it',
      customer: 'cus_it',
      price: 'price_yearly_it',
      start,
      end: start + 365 * 24 * 3600,
      userId: learnerId,
    })
    const created = stripeEvent('evt_it_1', 'customer.subscription.created', start, subscription)
    expect((await webhook(created, 'whsec_wrong')).status).toBe(400)
    const delivered = await webhook(created)
    expect(delivered.status).toBe(200)
    expect(await delivered.json()).toEqual({ received: true, outcome: 'applied' })

    const premium = await page('/plans', learner)
    expect(premium.html).toMatch(/現在のプラン: (<!-- -->)?プレミアム（年額）/)
    expect(premium.html).toContain('お支払い方法の変更・解約')
    expect(premium.html).not.toContain('value="cancel"')
    // In-app changes would be undone by Stripe's next event: refused, the portal does them.
    const cancel = await post('/plans', { intent: 'cancel' }, learner)
    expect(cancel.status).toBe(409)
    const portal = await post('/plans', { intent: 'portal' }, learner)
    expect(portal.status).toBe(303)
    expect(portal.headers.get('location')).toMatch(`${standIn.url}/portal/`)
    expect(standIn.requests.at(-1)?.form).toMatchObject({
      customer: 'cus_it',
      return_url: `${server.url}/plans`,
    })
  })
})
