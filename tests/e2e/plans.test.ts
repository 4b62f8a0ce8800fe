import { beforeAll, describe, expect, test } from 'vitest'
import { signInAgainCookie } from '#tests/support/signed-in-user.ts'
import { axeAtBothSizes } from './axe.ts'
import { collectPageErrors, waitForHydration } from './browser.ts'
import { payWith } from './card-form.ts'
import { browserSuite } from './suite.ts'

/**
 * Plans end to end: a free learner hits a premium lesson, goes to /plans, pays
 * with 4242… and reads the lesson at once; a declined card and the authentication card show the
 * right Japanese messages; cancel keeps premium until the period ends (the test server's clock
 * moved on, the renewal scheduler run), then free; resuming before the end keeps premium (the
 * renewal charges). axe checks /plans, the checkout, the authentication step and the billing
 * history.
 */
const site = browserSuite()
const DAY = 24 * 3600 * 1000
const LOCKED = 'このレッスンはプレミアムプランで受講できます'
let premiumLesson: string

beforeAll(async () => {
  const { db } = site.server.database
  const lesson = await db
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

describe('plans and card checkout', () => {
  test('a learner pays with 4242… from a locked lesson, reads it at once, cancels, and is free after the period', async () => {
    const page = await site.signedInPage('hana_plans')
    const errors = collectPageErrors(page)
    await page.goto(premiumLesson)
    await page.getByText(LOCKED).waitFor()
    await page.getByRole('link', { name: 'プランを見る' }).click()
    await page.getByRole('heading', { name: '料金プラン', level: 1 }).waitFor()
    await waitForHydration(page)
    const a11y = await axeAtBothSizes(page)
    await page.getByText('1,078円').first().waitFor()
    await page.getByRole('link', { name: '月額で申し込む' }).click()
    await page.getByRole('heading', { name: 'プレミアムプランのお申し込み' }).waitFor()
    await waitForHydration(page)
    a11y.push(...(await axeAtBothSizes(page)))

    // Empty: each field says what it needs; a declined card says so; nothing is charged.
    await page.getByRole('button', { name: /を支払って申し込む/ }).click()
    await page.getByText('カード番号は 12〜19 桁の数字で入力してください').waitFor()
    await payWith(page, '4000 0000 0000 0002')
    await page.getByText('カードが承認されませんでした').waitFor()
    await payWith(page, '4000 0000 0000 9995')
    await page.getByText('カードの残高が不足しています').waitFor()
    await payWith(page, '4111 1111 1111 1111')
    await page.getByText('テスト用のカードではありません').waitFor()

    await payWith(page, '4242 4242 4242 4242')
    // Back on the lesson, readable at once: no second sign-in.
    await page.waitForURL((url) => url.pathname === premiumLesson)
    await page.locator('.markdown-body').waitFor()
    expect(await page.getByText(LOCKED).count()).toBe(0)

    await page.goto('/settings#billing')
    const receipt = page.getByRole('row').filter({ hasText: /TL-\d{8}-/ })
    await receipt.waitFor()
    expect(await receipt.textContent()).toContain('1,078円')
    a11y.push(...(await axeAtBothSizes(page)))

    await page.goto('/plans')
    await page.getByText('現在のプラン: プレミアム（月額）').waitFor()
    await page.getByRole('button', { name: '解約する' }).click()
    await page
      .getByRole('dialog', { name: 'プレミアムプランを解約しますか？' })
      .getByRole('button', { name: '解約する' })
      .click()
    await page.getByText('解約を受け付けました').waitFor()
    await page.goto(premiumLesson)
    await page.locator('.markdown-body').waitFor()

    // This page's session is about to expire with the clock moved on: what it logged so far.
    expect(errors).toEqual([])
    await page.close()
    // The paid month ends; the scheduler's next pass ends the subscription.
    site.server.clock.advance(32 * DAY)
    expect(await site.server.app.renewals.run()).toMatchObject({ ended: 1 })
    const again = await site.newPage(await signInAgainCookie(site.server, 'hana_plans'))
    await again.goto(premiumLesson)
    await again.getByText(LOCKED).waitFor()

    expect(a11y).toEqual([])
  })

  test('the authentication card asks to confirm; resuming before the end keeps premium', async () => {
    const page = await site.signedInPage('ken_plans')
    const errors = collectPageErrors(page)
    await page.goto('/plans/checkout?plan=premium-yearly')
    await page.getByText('10,780円').first().waitFor()
    await waitForHydration(page)
    await payWith(page, '4000 0025 0000 3155')
    await page.getByRole('heading', { name: 'カードの本人認証' }).waitFor()
    await waitForHydration(page)
    const a11y = await axeAtBothSizes(page)
    await page.getByRole('button', { name: '認証に失敗させる' }).click()
    await page.getByText('カードの本人認証に失敗しました').waitFor()
    // The payment stays open, as Stripe's does, even after a reload: another card, or the same
    // card authenticated again.
    await page.reload()
    await page.getByText('カードの本人認証に失敗しました').waitFor()
    await waitForHydration(page)
    a11y.push(...(await axeAtBothSizes(page)))
    expect(await page.getByRole('button', { name: '認証する', exact: true }).count()).toBe(0)
    expect(
      await page.getByRole('link', { name: '別のカードを使う' }).getAttribute('href'),
    ).toContain('plan=premium-yearly')
    await page.getByRole('button', { name: 'もう一度認証する' }).click()
    await page.getByRole('button', { name: '認証する', exact: true }).click()
    await page.getByText('現在のプラン: プレミアム（年額）').waitFor()

    // A scheduled switch is said, and the button that made it now takes it back.
    await page.getByRole('button', { name: '月額プランに変更' }).click()
    await page.getByText('次回の更新から: プレミアム（月額）').waitFor()
    expect(await page.getByRole('button', { name: '月額プランに変更' }).count()).toBe(0)
    await page.getByRole('button', { name: 'プランの変更を取り消す' }).click()
    await page.getByText('プランの変更を取り消しました').waitFor()
    await page.getByRole('button', { name: '月額プランに変更' }).waitFor()

    await page.getByRole('button', { name: '解約する' }).click()
    await page
      .getByRole('dialog', { name: 'プレミアムプランを解約しますか？' })
      .getByRole('button', { name: '解約する' })
      .click()
    await page.getByText('解約を受け付けました').waitFor()
    await page.getByRole('button', { name: '解約を取り消す' }).click()
    await page.getByText('解約を取り消しました').waitFor()

    expect(errors).toEqual([])
    await page.close()
    // A year on, the renewal charges the saved card (off-session) and premium goes on.
    site.server.clock.advance(370 * DAY)
    const report = await site.server.app.renewals.run()
    expect(report.renewed).toBeGreaterThanOrEqual(1)
    const again = await site.newPage(await signInAgainCookie(site.server, 'ken_plans'))
    await again.goto(premiumLesson)
    await again.locator('.markdown-body').waitFor()
    expect(await again.getByText(LOCKED).count()).toBe(0)

    expect(a11y).toEqual([])
  })
})
