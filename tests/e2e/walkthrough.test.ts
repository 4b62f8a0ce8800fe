import { randomBytes } from 'node:crypto'
import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { callApi } from '#tests/support/http.ts'
import { signedInCookie } from '#tests/support/signed-in-user.ts'
import { axeViolationsInBothThemes, SCREENS } from './axe.ts'
import { collectPageErrors, markdownEditor, waitForHydration } from './browser.ts'
import { payWith } from './card-form.ts'
import { browserSuite } from './suite.ts'

/**
 * A newcomer's first hour , at desktop and phone sizes, on the server
 * `npm start` runs (production mode, no SMTP_URL): sign up through the pages with the code from
 * the mailbox page, choosing a username; create and publish a course with a lesson; follow
 * someone, like and comment; read the notifications another user's actions caused; check the
 * history; subscribe with a card whose 3-D Secure fails once and is tried again. axe finds
 * nothing on any screen on the way, light or dark.
 */
const suite = browserSuite({ NODE_ENV: 'production' })
const PASSWORD = 'Hajimete1!'

/** The demo seed's study to like and comment on, and its author to follow. */
async function demoStudy(): Promise<{ author: string; path: string; title: string }> {
  const study = await suite.server.database.db
    .selectFrom('studies')
    .innerJoin('users', 'users.id', 'studies.owner_id')
    .select(['users.username', 'studies.id', 'studies.title'])
    .where('studies.status', '=', 'published')
    .orderBy('studies.id')
    .executeTakeFirstOrThrow()
  return {
    author: study.username,
    path: `/${study.username}/studies/${study.id}`,
    title: study.title,
  }
}

describe.each(SCREENS)('a newcomer’s first hour at $name size', (screen) => {
  test('signs up, publishes a course, follows, likes, comments, reads notifications and history', async () => {
    const username = `new_${screen.name.slice(0, 1)}${randomBytes(3).toString('hex')}`
    const email = `${username}@example.com`
    const page = await suite.newPage()
    await page.setViewportSize(screen)
    const errors = collectPageErrors(page)
    const violations: string[] = []
    /** axe on the screen now shown, after React has hydrated it. */
    async function screenChecked(name: string, target: Page = page) {
      await waitForHydration(target)
      for (const line of await axeViolationsInBothThemes(target)) violations.push(`${name} ${line}`)
    }

    await page.goto('/')
    await screenChecked('home (guest)')
    await page.locator('header').getByRole('link', { name: '無料で始める' }).click()
    await page.waitForURL('**/auth/signup')
    await screenChecked('sign-up')
    await page.getByLabel('ユーザー名').fill(username)
    await page.getByLabel('メールアドレス').fill(email)
    await page.getByLabel('パスワード', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: '登録する' }).click()
    await page.waitForURL(/\/auth\/confirm\?/)
    await screenChecked('confirm')

    // No mail server: the confirm screen links the mailbox page, which shows the code.
    const [mailbox] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: '開発用メールボックス' }).click(),
    ])
    await mailbox.waitForLoadState()
    await mailbox.setViewportSize(screen)
    for (const line of await axeViolationsInBothThemes(mailbox)) violations.push(`mailbox ${line}`)
    const message = mailbox.locator('article', { hasText: email }).first()
    const code = /確認コード: (\d{6})/.exec((await message.locator('pre').textContent()) ?? '')?.[1]
    expect(code).toMatch(/^\d{6}$/)
    await mailbox.close()
    await page.getByLabel('確認コード（6桁）').fill(code ?? '')
    await page.getByRole('button', { name: '登録を完了する' }).click()
    await page.waitForURL((url) => url.pathname !== '/auth/confirm')
    if (new URL(page.url()).pathname === '/auth/signin') {
      await screenChecked('sign-in')
      await page.getByLabel('パスワード').fill(PASSWORD)
      await page.getByRole('button', { name: 'ログイン', exact: true }).click()
    }
    await page.locator('[data-user-menu]').first().waitFor()
    await screenChecked('home (signed in)')

    // A course with one lesson, from the header's 「投稿する」 menu, published.
    await page.locator('[data-create-menu] summary').click()
    await page
      .locator('[data-create-menu]')
      .getByRole('link', { name: /^コース/ })
      .click()
    await page.waitForURL(`**/${username}/courses/create`)
    await screenChecked('course editor (new)')
    await page.getByLabel('タイトル', { exact: true }).fill('はじめての HTML')
    await page.waitForURL(/\/courses\/[0-9a-z]{16}\/edit$/)
    await page.getByLabel('概要', { exact: true }).fill('見出しと段落から始めます。')
    await page.getByLabel('セクションを追加').fill('基本のタグ')
    await page.getByRole('button', { name: '追加' }).last().click()
    await page.getByLabel('「基本のタグ」にレッスンを追加').fill('見出しを書く')
    await page.getByRole('button', { name: '追加' }).first().click()
    await page.getByRole('button', { name: 'レッスン「見出しを書く」を編集' }).click()
    await (await markdownEditor(page, '本文（Markdown）')).fill('# 見出し\n\n`<h1>` で書きます。')
    await expect
      .poll(() =>
        page.locator('li:has(textarea) [data-save-state]').getAttribute('data-save-state'),
      )
      .toBe('saved')
    await screenChecked('course editor (lesson open)')
    await page.getByRole('button', { name: '公開する' }).click()
    await page.locator('[data-course-status="published"]').waitFor()
    const coursePath = new URL(page.url()).pathname.replace(/\/edit$/, '')
    await page.goto(coursePath)
    await screenChecked('own course')

    // Someone else's study: follow its author, like it, comment on it.
    const study = await demoStudy()
    await page.goto(`/${study.author}`)
    await screenChecked('profile')
    const follow = page.getByRole('button', { name: /^フォロー(する|中)$/ })
    await follow.click()
    await expect.poll(() => follow.getAttribute('data-state')).toBe('following')
    await page.goto(study.path)
    await screenChecked('study')
    const like = page.getByRole('button', { name: /いいね/ })
    await like.click()
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true')
    await page.getByRole('textbox', { name: 'コメント（Markdown）' }).fill('とても参考になりました')
    await page.getByRole('button', { name: 'コメントする' }).click()
    await page.getByRole('article', { name: `${username}のコメント` }).waitFor()
    await screenChecked('study (commented)')

    // Another learner follows the newcomer, likes the course and comments on it.
    const reader = `reader_${randomBytes(3).toString('hex')}`
    const readerCookie = await signedInCookie(suite.server, reader)
    const courseId = coursePath.split('/').pop()
    for (const [method, path, body] of [
      ['POST', `/users/${username}/follow`],
      ['PUT', `/likes/course/${courseId}`],
      ['POST', `/comments/course/${courseId}`, { body: 'わかりやすいコースでした！' }],
    ] as const) {
      const answer = await callApi(suite.server.url, method, path, readerCookie, body)
      expect(answer.status, `${method} ${path}`).toBeLessThan(300)
    }

    await page.goto('/')
    await waitForHydration(page)
    await page.getByRole('link', { name: '通知（未読 3 件）', exact: true }).click()
    await page.waitForURL('**/notifications')
    const list = page.getByRole('region', { name: '通知' })
    await list.getByText(`${reader} さんがあなたをフォローしました`).waitFor()
    await list.getByText('あなたのコース「はじめての HTML」にいいねしました').waitFor()
    await list.getByText('あなたのコース「はじめての HTML」にコメントしました').waitFor()
    await screenChecked('notifications')

    await page.goto('/histories')
    await screenChecked('history')
    expect(await page.getByText('はじめての HTML').count()).toBeGreaterThan(0)

    // Premium with a card that asks for 3-D Secure: the first confirmation fails, the second
    // attempt with the same card goes through.
    await page.goto('/plans/checkout?plan=premium-yearly')
    await screenChecked('checkout')
    await payWith(page, '4000 0025 0000 3155')
    await page.getByRole('heading', { name: 'カードの本人認証' }).waitFor()
    await screenChecked('3-D Secure')
    await page.getByRole('button', { name: '認証に失敗させる' }).click()
    await page.getByText('カードの本人認証に失敗しました').waitFor()
    await screenChecked('3-D Secure (failed)')
    await page.getByRole('button', { name: 'もう一度認証する' }).click()
    await page.getByRole('button', { name: '認証する', exact: true }).click()
    await page.getByText('現在のプラン: プレミアム（年額）').waitFor()

    expect(violations).toEqual([])
    expect(errors).toEqual([])
  }, 240_000)
})

describe('a picture that is not one, in every editor that takes pictures', () => {
  test('is refused at once in Japanese and never enters the form', async () => {
    const page = await suite.signedInPage('walk_uploads')
    const errors = collectPageErrors(page)
    const notAPicture = {
      name: 'screenshot.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<!doctype html><html><body><p>not a picture</p></body></html>'),
    }
    const refusal = page.getByText(
      'このファイルは中身が PNG・JPEG・WebP・GIF の画像ではないため、追加できません。画像ファイルを選んでください。',
    )
    /** Picks the file in every picker of the editor shown now: each says no, none adds it. */
    async function refusedByEveryPicker(editor: string, atLeast: number) {
      const pickers = page.locator('input[type="file"]')
      const count = await pickers.count()
      expect(count, editor).toBeGreaterThanOrEqual(atLeast)
      for (let index = 0; index < count; index += 1) {
        await pickers.nth(index).setInputFiles(notAPicture)
        await expect.poll(() => refusal.count(), { message: editor }).toBe(index + 1)
      }
      expect(await page.locator('main img[src*="/s3/"]').count(), editor).toBe(0)
      expect(await page.locator('[data-save-state="failed"]').count(), editor).toBe(0)
    }
    /** Opens a kind's create page and types a title, which creates the draft. */
    async function newDraft(collection: string, title: string): Promise<string> {
      await page.goto(`/walk_uploads/${collection}/create`)
      await waitForHydration(page)
      await page.getByLabel('タイトル', { exact: true }).fill(title)
      await page.waitForURL(new RegExp(`/walk_uploads/${collection}/[0-9a-z]{16}/edit$`))
      return page.url().split('/').at(-2) ?? ''
    }

    // A study (images in its notes), and a question of it (prompt and explanation).
    const studyId = await newDraft('studies', '画像のテスト')
    await refusedByEveryPicker('study', 1)
    await page.goto(`/walk_uploads/studies/${studyId}/exercises/create`)
    await waitForHydration(page)
    await refusedByEveryPicker('question', 2)
    // A lab (screenshots, images in its description), a story (cover, images in its body).
    await newDraft('labs', '画像のテストのラボ')
    await refusedByEveryPicker('lab', 2)
    await newDraft('labs_stories', '画像のテストの話')
    await refusedByEveryPicker('lab story', 2)
    // A course (cover) and its lesson (images in its body).
    await newDraft('courses', '画像のテストのコース')
    await page.getByLabel('セクションを追加').fill('はじめに')
    await page.getByRole('button', { name: '追加' }).last().click()
    await page.getByLabel('「はじめに」にレッスンを追加').fill('画像')
    await page.getByRole('button', { name: '追加' }).first().click()
    await page.getByRole('button', { name: 'レッスン「画像」を編集' }).click()
    await markdownEditor(page, '本文（Markdown）')
    await refusedByEveryPicker('course and lesson', 2)
    expect(errors).toEqual([])
  })
})
