import { randomBytes } from 'node:crypto'
import { expect, test } from 'vitest'
import { collectPageErrors, waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * A newcomer's `npm start`: production mode, no SMTP_URL. Sign-up through the UI, the code
 * read from the mailbox page the confirm screen links to, then signed in — nothing but what
 * the pages show.
 */
const suite = browserSuite({ NODE_ENV: 'production' })

const username = `new_${randomBytes(4).toString('hex')}`
const email = `${username}@example.com`
const password = 'Hajimete1!'

test('signs up with the code from the mailbox page, then signs in', async () => {
  const page = await suite.newPage()
  const context = page.context()
  const errors = collectPageErrors(page)
  await page.goto('/auth/signup')
  await waitForHydration(page)
  await page.getByLabel('ユーザー名').fill(username)
  await page.getByLabel('メールアドレス').fill(email)
  await page.getByLabel('パスワード', { exact: true }).fill(password)
  await page.getByRole('button', { name: '登録する' }).click()
  await page.waitForURL(/\/auth\/confirm\?/)

  // The confirm screen says where the code is, since no mail goes out.
  const note = page.locator('[data-dev-mailbox-note]')
  expect(await note.textContent()).toContain('SMTP_URL')
  const [mailbox] = await Promise.all([
    context.waitForEvent('page'),
    note.getByRole('link', { name: '開発用メールボックス' }).click(),
  ])
  await mailbox.waitForLoadState()
  expect(new URL(mailbox.url()).pathname).toBe('/dev/mailbox')
  const message = mailbox.locator('article', { hasText: email }).first()
  expect(await message.locator('h2').textContent()).toBe('【テックラボ】ご登録の確認コード')
  const code = /確認コード: (\d{6})/.exec((await message.locator('pre').textContent()) ?? '')?.[1]
  expect(code).toMatch(/^\d{6}$/)
  await mailbox.close()

  await page.getByLabel('確認コード（6桁）').fill(code ?? '')
  await page.getByRole('button', { name: '登録を完了する' }).click()
  await page.waitForURL(/\/auth\/signin\?/)
  await waitForHydration(page)
  expect(await page.getByLabel('ユーザー名またはメールアドレス').inputValue()).toBe(username)
  await page.getByLabel('パスワード').fill(password)
  await page.getByRole('button', { name: 'ログイン', exact: true }).click()
  await page.waitForURL((url) => url.pathname === '/')
  await page.locator('[data-user-menu]').first().waitFor()
  expect(await page.content()).toContain(`@${username}`)
  expect(errors).toEqual([])
})
