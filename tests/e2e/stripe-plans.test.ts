import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  deliverStripeEvent,
  stripeEvent,
  stripeSubscription,
} from '#tests/support/stripe-events.ts'
import { startStripeStandIn } from '#tests/support/stripe-stand-in.ts'
import { configuredAddress } from '#tests/support/test-server.ts'
import { axeAtBothSizes } from './axe.ts'
import { collectPageErrors, waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * Stripe mode in Chromium (decision 040): /plans offers Stripe Checkout (signed out: sign in
 * first), the subscribe button takes the browser to the Checkout Session's page (a local
 * stand-in of Stripe's API and pages), coming back shows the notice, the signed webhook makes
 * the learner premium at once (a premium lesson opens), and the portal button goes to the
 * Customer Portal and back. axe at both sizes on each state of /plans; no console errors.
 */
const SECRET = 'whsec_e2e0123456789'
const standIn = await startStripeStandIn()
const site = browserSuite({
  ...(await configuredAddress()),
  PAYMENT_GATEWAY: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_e2e',
  STRIPE_WEBHOOK_SECRET: SECRET,
  STRIPE_PRICE_PREMIUM_MONTHLY: 'price_monthly_e2e',
  STRIPE_PRICE_PREMIUM_YEARLY: 'price_yearly_e2e',
  STRIPE_API_URL: standIn.url,
})
const LOCKED = 'このレッスンはプレミアムプランで受講できます'
let premiumLesson: string

beforeAll(async () => {
  const lesson = await site.server.database.db
    .selectFrom('lessons')
    .innerJoin('courses', 'courses.id', 'lessons.course_id')
    .innerJoin('users', 'users.id', 'courses.owner_id')
    .select(['users.username', 'courses.id as course', 'lessons.id as lesson'])
    .where('courses.status', '=', 'published')
    .where('lessons.access', '=', 'premium')
    .orderBy('lessons.id')
    .executeTakeFirstOrThrow()
  premiumLesson = `/${lesson.username}/courses/${lesson.course}/lessons/${lesson.lesson}`
})
afterAll(async () => {
  await standIn.close()
})

describe('plans in Stripe mode', () => {
  test('a guest is sent to sign in before Checkout', async () => {
    const page = await site.newPage()
    const errors = collectPageErrors(page)
    await page.goto('/plans')
    await waitForHydration(page)
    const a11y = await axeAtBothSizes(page)
    const subscribe = page.getByRole('link', { name: '月額で申し込む' })
    expect(await subscribe.getAttribute('href')).toMatch(/^\/auth\/signin\?redirectTo=/)
    expect(await page.locator('input[name="checkoutKey"]').count()).toBe(0)
    expect(errors).toEqual([])
    expect(a11y).toEqual([])
  })

  test('a learner subscribes on Stripe Checkout, is premium once the webhook arrives, and manages it on the portal', async () => {
    const page = await site.signedInPage('aoi_stripe')
    const errors = collectPageErrors(page)
    await page.goto(premiumLesson)
    await page.getByText(LOCKED).waitFor()
    await page.goto('/plans')
    await page.getByRole('heading', { name: '料金プラン', level: 1 }).waitFor()
    await waitForHydration(page)
    const a11y = await axeAtBothSizes(page)

    await page.getByRole('button', { name: '年額で申し込む' }).click()
    await page.getByRole('heading', { name: 'Checkout (stand-in)' }).waitFor()
    expect(page.url()).toMatch(`${standIn.url}/checkout/`)
    const created = standIn.requests.find(({ path }) => path === '/v1/checkout/sessions')
    expect(created?.form['line_items[0][price]']).toBe('price_yearly_e2e')
    const userId = created?.form.client_reference_id ?? ''

    // Back from Checkout before Stripe's event: a notice, still free.
    await page.getByRole('link', { name: '支払いを完了する' }).click()
    await page.getByText('お支払いが確認でき次第').waitFor()
    await waitForHydration(page)
    a11y.push(...(await axeAtBothSizes(page)))

    const start = Math.floor(site.server.clock.now() / 1000)
    const subscription = stripeSubscription({
      price: 'price_yearly_e2e',
      start,
      end: start + 365 * 24 * 3600,
      userId,
    })
    const event = stripeEvent('evt_e2e_1', 'customer.subscription.created', start, subscription)
    expect((await deliverStripeEvent(site.server.url, event, SECRET)).status).toBe(200)

    // Premium at once, no second sign-in.
    await page.goto(premiumLesson)
    await page.locator('.markdown-body').waitFor()
    expect(await page.getByText(LOCKED).count()).toBe(0)

    await page.goto('/plans')
    await page.getByText('現在のプラン: プレミアム（年額）').waitFor()
    await waitForHydration(page)
    expect(await page.getByRole('button', { name: '解約する' }).count()).toBe(0)
    a11y.push(...(await axeAtBothSizes(page)))
    await page.getByRole('button', { name: 'お支払い方法の変更・解約' }).click()
    await page.getByRole('heading', { name: 'Customer Portal (stand-in)' }).waitFor()
    await page.getByRole('link', { name: 'サイトに戻る' }).click()
    await page.getByText('現在のプラン: プレミアム（年額）').waitFor()

    expect(errors).toEqual([])
    expect(a11y).toEqual([])
  })
})
