import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { amplifyCookieHeader } from '../../app/lib/auth/test-tokens.ts'
import { CLIENT_ID, signedInUser } from '../support/signed-in-user.ts'
import { collectPageErrors, serverWithBrowser, waitForHydration } from './browser.ts'

/**
 * The course editor in Chromium: create a course with a section and a lesson, reload (it was
 * autosaved), publish, and read it as a guest.
 */
const site = serverWithBrowser()
const newPage = site.newPage

const saved = (scope: Page | ReturnType<Page['locator']>) =>
  scope.locator('[data-save-state="saved"]').first()

describe('the course editor', () => {
  test('creates a course with a section and a lesson, autosaves, publishes; a guest reads it', async () => {
    const tokens = await signedInUser(site.server, 'mika_editor')
    const page = await newPage(amplifyCookieHeader(CLIENT_ID, 'mika_editor', tokens))
    const errors = collectPageErrors(page)

    await page.goto('/mika_editor/courses/create')
    await waitForHydration(page)
    await page.getByLabel('タイトル', { exact: true }).fill('ブラウザで作る JavaScript 入門')
    // The first autosave creates the draft and moves the editor to its address.
    await page.waitForURL(/\/mika_editor\/courses\/[0-9a-z]{16}\/edit$/)
    const editUrl = page.url()
    await waitForHydration(page)
    await page.getByLabel('概要', { exact: true }).fill('変数と関数を手を動かして学びます。')
    await page.getByLabel('タグ（カンマ区切り、10 個まで）').fill('ＪａｖａＳｃｒｉｐｔ, 入門')
    await expect.poll(() => saved(page).isVisible()).toBe(true)

    await page.getByLabel('セクションを追加').fill('はじめに')
    await page.getByRole('button', { name: '追加' }).last().click()
    await page.getByLabel('「はじめに」にレッスンを追加').fill('変数を使ってみよう')
    await page.getByRole('button', { name: '追加' }).first().click()
    await page.getByRole('button', { name: 'レッスン「変数を使ってみよう」を編集' }).click()
    const body = '# 変数\n\n`let` で変数を作ります。\n\n```js\nlet name = "たろう"\n```'
    await page.getByLabel('本文（Markdown）').fill(body)
    await expect
      .poll(() => page.locator('section[aria-label="プレビュー"] h1').textContent())
      .toBe('変数')
    await expect
      .poll(() =>
        page.locator('li:has(textarea) [data-save-state]').getAttribute('data-save-state'),
      )
      .toBe('saved')

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
    expect(await page.getByLabel('本文（Markdown）').inputValue()).toBe(body)

    const coursePath = new URL(editUrl).pathname.replace(/\/edit$/, '')
    const guest = await newPage()
    expect((await guest.goto(coursePath))?.status()).toBe(404)

    await page.getByRole('button', { name: '公開する' }).click()
    await page.locator('[data-course-status="published"]').waitFor()

    expect((await guest.goto(coursePath))?.status()).toBe(200)
    await waitForHydration(guest)
    expect(await guest.locator('h1').textContent()).toBe('ブラウザで作る JavaScript 入門')
    await guest.getByRole('link', { name: '学習を始める' }).click()
    await guest.waitForURL(/\/lessons\/[0-9a-z]{16}$/)
    // Client navigation: the URL changes before the lesson has rendered.
    await expect
      .poll(() => guest.locator('article h1').first().textContent())
      .toBe('変数を使ってみよう')
    expect(await guest.locator('.markdown-body pre').textContent()).toContain('let name = "たろう"')
    expect(await guest.getByText('サインインすると進捗を記録できます').isVisible()).toBe(true)
    expect(errors).toEqual([])
  })
})
