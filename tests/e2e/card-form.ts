import type { Page } from 'playwright-core'

/** Fills the checkout's card form with a test card number and submits it. */
export async function payWith(page: Page, number: string) {
  await page.getByLabel('カード番号').fill(number)
  await page.getByLabel('有効期限（月）').fill('12')
  await page.getByLabel('有効期限（年）').fill(String(new Date().getFullYear() + 3))
  await page.getByLabel('セキュリティコード').fill('123')
  await page.getByLabel('カード名義').fill('HANA YAMADA')
  await page.getByRole('button', { name: /を支払って申し込む/ }).click()
}
