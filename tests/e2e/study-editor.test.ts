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
 * The study editor in Chromium: create a study, it autosaves (a reload shows it), it waits in
 * /drafts, is published from there, and a guest finds it on its tag page.
 */
const { newPage, signedInPage } = browserSuite()

describe('the study editor', () => {
  test('creates a study, autosaves, shows it in /drafts, publishes; a guest finds it by tag', async () => {
    const page = await signedInPage('yui_studies')
    const errors = collectPageErrors(page)

    await page.goto('/yui_studies/studies/create')
    await waitForHydration(page)
    const create = await holdCreateRequest(page, '/api/studies')
    await page.getByLabel('タイトル', { exact: true }).fill('配列メソッドのまとめ')
    // Typed while the first autosave is creating the draft: kept when the editor then moves to
    // the draft's address.
    await create.sent
    await page.getByLabel('タグ（カンマ区切り、10 個まで）').fill('ＪａｖａＳｃｒｉｐｔ, 配列')
    create.release()
    await page.waitForURL(/\/yui_studies\/studies\/[0-9a-z]{16}\/edit$/)
    const editUrl = page.url()
    const notes = '# map と filter\n\n```js\n[1, 2, 3].map((n) => n * 2)\n```'
    await (await markdownEditor(page, 'ノート（Markdown）')).fill(notes)
    await expect
      .poll(() => page.locator('[id$="-panel-preview"] h1').textContent())
      .toBe('map と filter')
    await page.getByLabel('画像を追加').setInputFiles({
      name: 'map.png',
      mimeType: 'image/png',
      buffer: PNG_1X1,
    })
    await page.getByText('map.png をアップロードしました。').waitFor()
    // Attached: on a phone the preview is the other tab. The alt text says what the image is
    // part of, not the file's name.
    await page
      .locator('[id$="-panel-preview"] img[alt="配列メソッドのまとめ の画像 1"]')
      .waitFor({ state: 'attached' })
    await expect
      .poll(() => page.locator('[data-save-state]').first().getAttribute('data-save-state'))
      .toBe('saved')

    // Saved without a save button: a reload shows everything.
    await page.goto(editUrl)
    await waitForHydration(page)
    expect(await page.getByLabel('タグ（カンマ区切り、10 個まで）').inputValue()).toBe(
      'javascript, 配列',
    )
    const savedNotes = await page.locator('textarea[name="notes"]').inputValue()
    expect(savedNotes.startsWith(`${notes}\n\n![配列メソッドのまとめ の画像 1](/s3/`)).toBe(true)
    expect(savedNotes).toMatch(
      /!\[配列メソッドのまとめ の画像 1\]\(\/s3\/[^)]+\/studies\/[^)]+\.png\)\n$/,
    )

    const studyPath = new URL(editUrl).pathname.replace(/\/edit$/, '')
    const guest = await newPage()
    expect((await guest.goto(studyPath))?.status()).toBe(404)

    await page.goto('/drafts')
    await waitForHydration(page)
    const entry = page.locator('li[data-draft-kind="study"]', { hasText: '配列メソッドのまとめ' })
    expect(await entry.getByRole('link', { name: '編集を続ける' }).getAttribute('href')).toBe(
      new URL(editUrl).pathname,
    )
    await entry.getByRole('button', { name: '公開する' }).click()
    await expect.poll(() => entry.count()).toBe(0)

    expect(
      (await guest.goto(`/tags/${encodeURIComponent('ＪＡＶＡＳＣＲＩＰＴ')}`))?.status(),
    ).toBe(200)
    await waitForHydration(guest)
    await guest.getByRole('link', { name: '配列メソッドのまとめ' }).click()
    await guest.waitForURL(new RegExp(`${studyPath}$`))
    await expect.poll(() => guest.locator('.markdown-body h1').textContent()).toBe('map と filter')
    expect(await guest.locator('.markdown-body pre').textContent()).toContain('[1, 2, 3].map')
    expect(await guest.getByRole('link', { name: 'このスタディの演習' }).isVisible()).toBe(true)
    expect(errors).toEqual([])
  })

  test('keeps text that never reached the server over a reload, and lets the author discard it', async () => {
    const page = await signedInPage('yui_local_copy')
    const errors = collectPageErrors(page)
    page.on('dialog', (dialog) => void dialog.accept())
    await page.goto('/yui_local_copy/studies/create')
    await waitForHydration(page)
    await page.getByLabel('タイトル', { exact: true }).fill('再帰のメモ')
    await page.waitForURL(/\/yui_local_copy\/studies\/([0-9a-z]{16})\/edit$/)
    const editUrl = page.url()
    const savePath = `/api/studies/${editUrl.split('/').at(-2)}`
    const summary = page.getByLabel('概要', { exact: true })
    await expect.poll(() => saveState(page)).toBe('saved')

    // The network drops: the summary typed now is only in the page, also during the reload.
    const offline = await typeOfflineAndReload(page, {
      savePath,
      url: editUrl,
      type: () => summary.fill('関数が自分を呼ぶしくみ'),
    })
    expect(await summary.inputValue()).toBe('関数が自分を呼ぶしくみ')

    // Back online, the restored text is edited and saved like any: a reload finds it saved.
    await offline.restore()
    await summary.fill('関数が自分を呼ぶしくみ。')
    await expect.poll(() => saveState(page)).toBe('saved')
    await page.goto(editUrl)
    await waitForHydration(page)
    expect(await summary.inputValue()).toBe('関数が自分を呼ぶしくみ。')
    expect(await page.locator('[data-local-copy-notice]').count()).toBe(0)

    // A restored copy the author does not want goes back to the saved text.
    const offlineAgain = await typeOfflineAndReload(page, {
      savePath,
      url: editUrl,
      type: () => summary.fill('書きかけの失敗'),
    })
    expect(await summary.inputValue()).toBe('書きかけの失敗')
    await offlineAgain.restore()
    await page.getByRole('button', { name: '復元した変更を破棄' }).click()
    expect(await summary.inputValue()).toBe('関数が自分を呼ぶしくみ。')
    expect(await page.locator('[data-local-copy-notice]').count()).toBe(0)
    expect(errors).toEqual([])
  })

  test('edits a published study into a pending revision: readers see it only after 更新する', async () => {
    const page = await signedInPage('yui_pending')
    const errors = collectPageErrors(page)
    await page.goto('/yui_pending/studies/create')
    await waitForHydration(page)
    await page.getByLabel('タイトル', { exact: true }).fill('ソートのまとめ')
    await page.waitForURL(/\/yui_pending\/studies\/[0-9a-z]{16}\/edit$/)
    const summary = page.getByLabel('概要', { exact: true })
    await summary.fill('公開した概要')
    await expect.poll(() => saveState(page)).toBe('saved')
    await page.getByRole('button', { name: '公開する' }).click()
    const status = page.locator('[data-publication-status]')
    await expect.poll(() => status.getAttribute('data-publication-status')).toBe('published')
    const studyPath = new URL(page.url()).pathname.replace(/\/edit$/, '')
    const reader = await signedInPage('yui_pending_reader')
    const readSummary = async () => {
      await reader.goto(studyPath)
      return reader.locator('main').textContent()
    }

    // Half-typed: saved for the author (it survives a reload), not public.
    await summary.fill('書きかけの概要')
    await expect.poll(() => saveState(page)).toBe('saved')
    await page.getByRole('button', { name: '更新する' }).waitFor()
    expect(await readSummary()).toContain('公開した概要')
    expect(await readSummary()).not.toContain('書きかけの概要')
    await page.reload()
    await waitForHydration(page)
    expect(await summary.inputValue()).toBe('書きかけの概要')

    await page.getByRole('button', { name: '更新する' }).click()
    await expect.poll(() => page.getByRole('button', { name: '更新する' }).count()).toBe(0)
    expect(await readSummary()).toContain('書きかけの概要')

    // 変更を破棄: the form goes back to what readers see.
    await summary.fill('やめておく概要')
    await expect.poll(() => saveState(page)).toBe('saved')
    await page.getByRole('button', { name: '変更を破棄' }).click()
    await expect.poll(() => summary.inputValue()).toBe('書きかけの概要')
    expect(await page.getByRole('button', { name: '変更を破棄' }).count()).toBe(0)
    await page.reload()
    await waitForHydration(page)
    expect(await summary.inputValue()).toBe('書きかけの概要')
    expect(await readSummary()).not.toContain('やめておく概要')
    expect(errors).toEqual([])
  })
})
