import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { collectPageErrors, markdownEditor, waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * Two tabs edit the same study; the second to save loses. Its conflict banner shows what that
 * tab typed, copies it to the clipboard, and asks before a reload would throw it away.
 */
const site = browserSuite()

/** Resolves once the tab's next save of the study has been answered. */
const nextSave = (page: Page) =>
  page.waitForResponse(
    (response) => response.request().method() === 'PUT' && /\/api\/studies\//.test(response.url()),
  )

describe('the conflict banner', () => {
  test('keeps the losing tab’s text: shows it, copies it, and asks before reloading', async () => {
    const first = await site.signedInPage('rin_conflict')
    const errors = collectPageErrors(first)
    await first.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: site.server.url,
    })
    await first.goto('/rin_conflict/studies/create')
    await waitForHydration(first)
    await first.getByLabel('タイトル', { exact: true }).fill('二つのタブで書くスタディ')
    await first.waitForURL(/\/rin_conflict\/studies\/[0-9a-z]{16}\/edit$/)
    const editUrl = first.url()
    await expect
      .poll(() => first.locator('[data-save-state]').first().getAttribute('data-save-state'))
      .toBe('saved')

    const second = await first.context().newPage()
    const secondErrors = collectPageErrors(second)
    await second.goto(editUrl)
    await waitForHydration(second)

    // The first tab saves a newer version…
    const saved = nextSave(first)
    await first.getByLabel('概要', { exact: true }).fill('先に保存した概要')
    expect((await saved).status()).toBe(200)

    // …so the second tab's save is refused, and its banner holds what it typed.
    const refused = nextSave(second)
    await (await markdownEditor(second, 'ノート（Markdown）')).fill('後から書いたノート\n二行目')
    expect((await refused).status()).toBe(409)
    const banner = second.getByRole('alert').filter({ hasText: 'ほかのタブまたは端末で更新' })
    await banner.waitFor()
    const typed = banner.getByLabel('この画面の保存されていない内容')
    expect(await typed.inputValue()).toBe(
      '【タイトル】\n二つのタブで書くスタディ\n\n【ノート】\n後から書いたノート\n二行目',
    )

    // Reloading before copying asks, in the site's own dialog; saying no keeps the tab as it is.
    await banner.getByRole('button', { name: '再読み込みする' }).click()
    const ask = second.getByRole('dialog', { name: '再読み込みして最新の内容を表示しますか？' })
    await ask.getByText('コピーしていない内容は失われます。').waitFor()
    await ask.getByRole('button', { name: 'キャンセル' }).click()
    await ask.waitFor({ state: 'detached' })
    expect(await typed.inputValue()).toContain('後から書いたノート')

    await banner.getByRole('button', { name: '内容をコピーする' }).click()
    await banner.getByText('コピーしました。').waitFor()
    expect(await second.evaluate(() => navigator.clipboard.readText())).toBe(
      await typed.inputValue(),
    )

    // Copied: the reload goes ahead without a question and shows the newer version.
    await banner.getByRole('button', { name: '再読み込みする' }).click()
    await expect
      .poll(() => second.getByLabel('概要', { exact: true }).inputValue())
      .toBe('先に保存した概要')
    expect(await second.getByRole('alert').filter({ hasText: 'ほかのタブ' }).count()).toBe(0)
    expect(await second.getByRole('dialog').count()).toBe(0)
    expect(errors).toEqual([])
    expect(secondErrors).toEqual([])
  })
})
