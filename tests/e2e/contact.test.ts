import { describe, expect, test } from 'vitest'
import { axeAtBothSizes } from './axe.ts'
import { collectPageErrors, waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * The contact form end to end: a guest sends it and sees the confirmation; an
 * admin (named by ADMIN_USERS) answers from /admin/contact; the guest's mailbox has the reply.
 * axe checks the form, the confirmation and both admin pages.
 */
const ADMIN = 'kenji_admin'
const site = browserSuite({ ADMIN_USERS: ADMIN })

describe('the contact form and its answer', () => {
  test('a guest sends the form; an admin answers it; the reply reaches the guest', async () => {
    const guest = await site.newPage()
    const guestErrors = collectPageErrors(guest)
    await guest.goto('/contact')
    await waitForHydration(guest)
    const a11y = await axeAtBothSizes(guest)

    // Sent empty first: each field says what it needs, in Japanese, and nothing is sent.
    await guest.getByRole('button', { name: '送信する' }).click()
    await guest.getByText('お問い合わせ内容を入力してください').waitFor()
    await guest.getByText('お名前を入力してください').waitFor()
    expect(await guest.getByLabel('お名前').getAttribute('aria-invalid')).toBe('true')

    await guest.getByLabel('お名前').fill('佐藤 ゆい')
    await guest.getByLabel('メールアドレス').fill('yui@example.com')
    await guest.getByLabel('お問い合わせの種類').selectOption({ label: 'お支払い' })
    await guest.getByLabel('お問い合わせ内容').fill('請求書の宛名を会社名にできますか？')
    await guest.getByRole('button', { name: '送信する' }).click()
    await guest.getByRole('heading', { name: 'お問い合わせを受け付けました' }).waitFor()
    expect(new URL(guest.url()).pathname).toBe('/contact/sent')
    a11y.push(...(await axeAtBothSizes(guest)))

    const admin = await site.signedInPage(ADMIN)
    const adminErrors = collectPageErrors(admin)
    await admin.goto('/admin/contact')
    await waitForHydration(admin)
    a11y.push(...(await axeAtBothSizes(admin)))
    await admin.getByRole('link', { name: '佐藤 ゆい 様（お支払い）' }).click()
    await admin
      .getByRole('heading', { name: '佐藤 ゆい 様からのお問い合わせ（お支払い）' })
      .waitFor()
    await admin.getByText('請求書の宛名を会社名にできますか？').waitFor()
    a11y.push(...(await axeAtBothSizes(admin)))
    await admin.getByLabel('返信').fill('はい、設定画面の「請求先」で会社名を指定できます。')
    await admin.getByRole('button', { name: '返信を送る' }).click()
    await admin.getByText('返信を送りました。').waitFor()
    await expect.poll(() => admin.getByTestId('contact-status').textContent()).toBe('回答済み')
    // Kept with the message: who replied, and when.
    await admin.getByText(`返信・${ADMIN}・`).waitFor()

    // The guest's mailbox (the outbox as /dev/mailbox shows it): the confirmation, then the reply.
    await guest.goto('/dev/mailbox?to=yui%40example.com')
    await guest.getByText('【テックラボ】お問い合わせへの回答').waitFor()
    await guest.getByText('はい、設定画面の「請求先」で会社名を指定できます。').first().waitFor()
    await guest.getByText('【テックラボ】お問い合わせを受け付けました').waitFor()

    expect(a11y).toEqual([])
    expect(guestErrors).toEqual([])
    expect(adminErrors).toEqual([])
  })
})
