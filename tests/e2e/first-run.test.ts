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

  // Confirming the email signs in (Amplify's autoSignIn): no second password prompt.
  await page.getByLabel('確認コード（6桁）').fill(code ?? '')
  await page.getByRole('button', { name: '登録を完了する' }).click()
  await page.waitForURL((url) => url.pathname === '/')
  await page.locator('[data-user-menu]').first().waitFor()
  expect(await page.content()).toContain(`@${username}`)
  expect(errors).toEqual([])
})

test('a second sign-up with that email: the answer tells nothing, the mail shows the way in', async () => {
  const page = await suite.newPage()
  const errors = collectPageErrors(page)
  await page.goto('/auth/signup')
  await waitForHydration(page)
  await page.getByLabel('ユーザー名').fill(`${username}_2`)
  await page.getByLabel('メールアドレス').fill(email)
  await page.getByLabel('パスワード', { exact: true }).fill(password)
  await page.getByRole('button', { name: '登録する' }).click()
  // The same screen as for a free address (PreventUserExistenceErrors), which says what a
  // registered address receives instead of a code.
  await page.waitForURL(/\/auth\/confirm\?/)
  // The address changes as the navigation starts: wait for the confirm screen itself.
  await page.getByRole('heading', { name: 'メールアドレスの確認' }).waitFor()
  expect(await page.locator('main').textContent()).toContain(
    '確認コードの代わりに、今のアカウントへのログイン方法をお知らせするメール',
  )

  const mailbox = await page.context().newPage()
  await mailbox.goto('/dev/mailbox')
  const notice = mailbox.locator('article', { hasText: email }).first()
  expect(await notice.locator('h2').textContent()).toBe(
    '【テックラボ】このメールアドレスはすでに登録されています',
  )
  const text = (await notice.locator('pre').textContent()) ?? ''
  expect(text).toContain(`ユーザー名: ${username}`)
  const signIn = /ログインする: (\S+)/.exec(text)?.[1] ?? ''
  expect(new URL(signIn).pathname).toBe('/auth/signin')
  await mailbox.close()

  // The link from the mail opens the sign-in screen with the existing username filled in.
  await page.goto(new URL(signIn).pathname + new URL(signIn).search)
  await waitForHydration(page)
  expect(await page.getByLabel('ユーザー名またはメールアドレス').inputValue()).toBe(username)
  expect(errors).toEqual([])
})
