import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import {
  collectPageErrors,
  holdCreateRequest,
  markdownEditor,
  saveState,
  typeOfflineAndReload,
  waitForHydration,
} from './browser.ts'
import { PNG_1X1 } from './fixtures/images.ts'
import { browserSuite } from './suite.ts'

/**
 * The course editor in Chromium: create a course with a section and a lesson, reload (it was
 * autosaved), publish, and read it as a guest.
 */
const { newPage, signedInPage } = browserSuite()

const saved = (scope: Page | ReturnType<Page['locator']>) =>
  scope.locator('[data-save-state="saved"]').first()

describe('the course editor', () => {
  test('creates a course with a section and a lesson, autosaves, publishes; a guest reads it', async () => {
    const page = await signedInPage('mika_editor')
    const errors = collectPageErrors(page)

    await page.goto('/mika_editor/courses/create')
    await waitForHydration(page)
    const create = await holdCreateRequest(page, '/api/courses')
    await page.getByLabel('タイトル', { exact: true }).fill('ブラウザで作る JavaScript 入門')
    // Typed while the first autosave is creating the draft: kept when the editor then moves to
    // the draft's address.
    await create.sent
    await page.getByLabel('概要', { exact: true }).fill('変数と関数を手を動かして学びます。')
    await page.getByLabel('タグ（カンマ区切り、10 個まで）').fill('ＪａｖａＳｃｒｉｐｔ, 入門')
    create.release()
    await page.waitForURL(/\/mika_editor\/courses\/[0-9a-z]{16}\/edit$/)
    const editUrl = page.url()
    await expect.poll(() => saved(page).isVisible()).toBe(true)

    await page.getByLabel('セクションを追加').fill('はじめに')
    await page.getByRole('button', { name: '追加' }).last().click()
    await page.getByLabel('「はじめに」にレッスンを追加').fill('変数を使ってみよう')
    await page.getByRole('button', { name: '追加' }).first().click()
    // An empty lesson cannot be published: the editor says which one.
    await page.getByRole('button', { name: 'レッスン「変数を使ってみよう」を編集' }).waitFor()
    await page.getByRole('button', { name: '公開する' }).click()
    await expect
      .poll(() => page.locator('[data-publish-errors]').textContent())
      .toBe('レッスン「変数を使ってみよう」の本文が空です。本文を書いてから公開してください')
    expect(await page.locator('[data-course-status]').getAttribute('data-course-status')).toBe(
      'draft',
    )
    await page.getByRole('button', { name: 'レッスン「変数を使ってみよう」を編集' }).click()
    const body = '# 変数\n\n`let` で変数を作ります。\n\n```js\nlet name = "たろう"\n```'
    await (await markdownEditor(page, '本文（Markdown）')).fill(body)
    await expect.poll(() => page.locator('[id$="-panel-preview"] h1').textContent()).toBe('変数')
    await expect
      .poll(() =>
        page.locator('li:has(textarea) [data-save-state]').getAttribute('data-save-state'),
      )
      .toBe('saved')

    await page.getByLabel('カバー画像をアップロード').setInputFiles({
      name: 'cover.png',
      mimeType: 'image/png',
      buffer: PNG_1X1,
    })
    const cover = page.locator('section[aria-labelledby="course-cover-heading"] img')
    await cover.waitFor()
    await expect.poll(() => cover.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1)

    // Everything above was saved without a save button: a reload shows it.
    await page.goto(editUrl)
    await waitForHydration(page)
    expect(await page.getByLabel('タイトル', { exact: true }).inputValue()).toBe(
      'ブラウザで作る JavaScript 入門',
    )
    expect(await page.getByLabel('概要', { exact: true }).inputValue()).toBe(
      '変数と関数を手を動かして学びます。',
    )
    expect(await page.getByLabel('タグ（カンマ区切り、10 個まで）').inputValue()).toBe(
      'javascript, 入門',
    )
    await page.getByRole('button', { name: 'レッスン「変数を使ってみよう」を編集' }).click()
    expect(await page.locator('textarea[name="body"]').inputValue()).toBe(body)

    const coursePath = new URL(editUrl).pathname.replace(/\/edit$/, '')
    const guest = await newPage()
    expect((await guest.goto(coursePath))?.status()).toBe(404)

    await page.getByRole('button', { name: '公開する' }).click()
    await page.locator('[data-course-status="published"]').waitFor()
    expect(await page.locator('[data-publish-errors]').count()).toBe(0)

    expect((await guest.goto(coursePath))?.status()).toBe(200)
    await waitForHydration(guest)
    expect(await guest.locator('h1').textContent()).toBe('ブラウザで作る JavaScript 入門')
    expect(await guest.locator('header img').getAttribute('src')).toBe(
      await cover.getAttribute('src'),
    )
    await guest.getByRole('link', { name: '学習を始める' }).click()
    await guest.waitForURL(/\/lessons\/[0-9a-z]{16}$/)
    // Client navigation: the URL changes before the lesson has rendered.
    await expect
      .poll(() => guest.locator('article h1').first().textContent())
      .toBe('変数を使ってみよう')
    expect(await guest.locator('.markdown-body pre').textContent()).toContain('let name = "たろう"')
    expect(await guest.getByText('ログインすると進捗を記録できます').isVisible()).toBe(true)
    expect(errors).toEqual([])
  })

  test("keeps a course's unsaved text over a reload", async () => {
    const page = await signedInPage('mika_local_copy')
    const errors = collectPageErrors(page)
    page.on('dialog', (dialog) => void dialog.accept())
    await page.goto('/mika_local_copy/courses/create')
    await waitForHydration(page)
    await page.getByLabel('タイトル', { exact: true }).fill('はじめての HTML')
    await page.waitForURL(/\/mika_local_copy\/courses\/[0-9a-z]{16}\/edit$/)
    const editUrl = page.url()
    await expect.poll(() => saved(page).isVisible()).toBe(true)

    // Saves of the course's fields fail: the summary typed now is only in the page.
    const summary = page.getByLabel('概要', { exact: true })
    const offline = await typeOfflineAndReload(page, {
      savePath: `/api/courses/${editUrl.split('/').at(-2)}`,
      url: editUrl,
      type: () => summary.fill('タグの書き方から一歩ずつ'),
    })
    expect(await summary.inputValue()).toBe('タグの書き方から一歩ずつ')
    await offline.restore()
    expect(await saveState(page)).not.toBe('saved')
    expect(errors).toEqual([])
  })
})
