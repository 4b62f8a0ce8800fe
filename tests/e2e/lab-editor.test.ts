import { describe, expect, test } from 'vitest'
import { collectPageErrors, markdownEditor, saveState, waitForHydration } from './browser.ts'
import { PNG_1X1 } from './fixtures/images.ts'
import { browserSuite } from './suite.ts'

/**
 * The lab editor's screenshots in Chromium: several picked at once upload one after another, up
 * to the lab's limit, and every picture's alt text says which lab it shows, never a file name.
 */
const site = browserSuite()

const cameraFiles = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => ({
    name: `IMG_${from + index}.png`,
    mimeType: 'image/png',
    buffer: PNG_1X1,
  }))

describe('the lab editor', () => {
  test('takes several screenshots at once, up to the limit, with alt text from the title', async () => {
    const page = await site.signedInPage('sora_labs')
    const errors = collectPageErrors(page)
    await page.goto('/sora_labs/labs/create')
    await waitForHydration(page)
    await page.getByLabel('タイトル', { exact: true }).fill('家計簿アプリ')
    await page.waitForURL(/\/sora_labs\/labs\/[0-9a-z]{16}\/edit$/)
    const editUrl = page.url()

    const picker = page.getByLabel('スクリーンショットを追加（複数まとめて選べます）')
    expect(await picker.getAttribute('multiple')).not.toBeNull()
    await picker.setInputFiles(cameraFiles(1234, 5))
    await page
      .getByText(
        'IMG_1234.png、IMG_1235.png、IMG_1236.png、IMG_1237.png、IMG_1238.png をアップロードしました。',
      )
      .waitFor()
    const shots = page.locator('section[aria-labelledby="screenshots-heading"] img')
    await expect.poll(() => shots.count()).toBe(5)

    // Eight at most: of five more, the first three are added and the rest named as left out.
    await picker.setInputFiles(cameraFiles(1239, 5))
    await page
      .getByText(
        'IMG_1239.png、IMG_1240.png、IMG_1241.png をアップロードしました。 ここに追加できるのはあと 3 件まででした。残りの 2 件（IMG_1242.png、IMG_1243.png）は追加していません。',
      )
      .waitFor()
    await expect.poll(() => shots.count()).toBe(8)
    expect(await picker.isDisabled()).toBe(true)
    await page.getByText('上限まで追加しました。外すと、また追加できます。').waitFor()
    expect(await shots.evaluateAll((all) => all.map((image) => image.getAttribute('alt')))).toEqual(
      Array.from({ length: 8 }, (_, index) => `家計簿アプリ のスクリーンショット ${index + 1}`),
    )
    await expect
      .poll(() => page.locator('[data-save-state]').first().getAttribute('data-save-state'))
      .toBe('saved')

    // Saved in the order picked, and published: the lab page names each picture by the lab.
    await page.goto(editUrl)
    await waitForHydration(page)
    await expect.poll(() => shots.count()).toBe(8)
    await page.getByRole('button', { name: '公開する' }).click()
    await expect
      .poll(() => page.locator('[data-publication-status]').getAttribute('data-publication-status'))
      .toBe('published')
    const guest = await site.newPage()
    expect((await guest.goto(new URL(editUrl).pathname.replace(/\/edit$/, '')))?.status()).toBe(200)
    const shown = guest.locator('section[aria-label="スクリーンショット"] img')
    expect(await shown.evaluateAll((all) => all.map((image) => image.getAttribute('alt')))).toEqual(
      Array.from({ length: 8 }, (_, index) => `家計簿アプリ のスクリーンショット ${index + 1}`),
    )
    expect(await guest.locator('img[alt*="IMG_"]').count()).toBe(0)
    expect(errors).toEqual([])
  })

  test('refuses a renamed HTML file at once, publishes only what is on screen, and keeps unsaved text over a reload', async () => {
    const page = await site.signedInPage('sora_labs_safe')
    const errors = collectPageErrors(page)
    // Leaving with unsaved text asks first; this test means to leave.
    page.on('dialog', (dialog) => void dialog.accept())
    await page.goto('/sora_labs_safe/labs/create')
    await waitForHydration(page)
    await page.getByLabel('タイトル', { exact: true }).fill('天気アプリ')
    await page.waitForURL(/\/sora_labs_safe\/labs\/[0-9a-z]{16}\/edit$/)
    const editUrl = page.url()

    // An HTML page named .png: refused before upload, said why in Japanese, never listed.
    await page.getByLabel('スクリーンショットを追加（複数まとめて選べます）').setInputFiles({
      name: 'screenshot.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<!doctype html><html><body><h1>not a picture</h1></body></html>'),
    })
    await page
      .getByText(
        'このファイルは中身が PNG・JPEG・WebP・GIF の画像ではないため、追加できません。画像ファイルを選んでください。',
      )
      .waitFor()
    const shots = page.locator('section[aria-labelledby="screenshots-heading"] img')
    expect(await shots.count()).toBe(0)

    // A repository address the server refuses: the description typed after it cannot be saved.
    await page.getByLabel('リポジトリの URL').fill('github.com/sora/weather')
    await page.getByLabel('タグ（カンマ区切り、10 個まで）').fill('javascript, api')
    await (await markdownEditor(page, '説明（Markdown）')).fill('天気の API を使った練習です。')
    await expect.poll(() => saveState(page)).toBe('failed')

    // Publishing would publish an older version: it refuses, and says why beside the field.
    await page.getByRole('button', { name: '公開する' }).click()
    await page.locator('[data-publish-problem]').waitFor()
    expect(await page.locator('[data-publish-problem]').textContent()).toContain(
      '保存できていない変更があるため、公開していません。',
    )
    await page
      .getByText('リポジトリの URL は https:// から始まる URL で入力してください')
      .first()
      .waitFor()
    expect(
      await page.locator('[data-publication-status]').getAttribute('data-publication-status'),
    ).toBe('draft')

    // A reload brings back what the server never got, with a notice.
    await page.goto(editUrl)
    await waitForHydration(page)
    await page.locator('[data-local-copy-notice]').waitFor()
    expect(await page.getByLabel('リポジトリの URL').inputValue()).toBe('github.com/sora/weather')
    expect(await page.getByLabel('タグ（カンマ区切り、10 個まで）').inputValue()).toBe(
      'javascript, api',
    )
    expect(await (await markdownEditor(page, '説明（Markdown）')).textContent()).toContain(
      '天気の API を使った練習です。',
    )

    // Corrected, it publishes exactly what is on screen.
    await page.getByLabel('リポジトリの URL').fill('https://github.com/sora/weather')
    await page.getByRole('button', { name: '公開する' }).click()
    await expect
      .poll(() => page.locator('[data-publication-status]').getAttribute('data-publication-status'))
      .toBe('published')
    const guest = await site.newPage()
    const shown = await guest.goto(new URL(editUrl).pathname.replace(/\/edit$/, ''))
    expect(shown?.status()).toBe(200)
    const html = await guest.content()
    expect(html).toContain('天気の API を使った練習です。')
    expect(html).toContain('href="https://github.com/sora/weather"')
    expect(errors).toEqual([])
  })
})
