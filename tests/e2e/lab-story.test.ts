import { describe, expect, test } from 'vitest'
import { collectPageErrors, markdownEditor, waitForHydration } from './browser.ts'
import { PNG_1X1 } from './fixtures/images.ts'
import { browserSuite } from './suite.ts'

/**
 * The lab story in Chromium: write a story, add a real PNG with 「画像を追加」 (it goes
 * to object storage and into the Markdown at the cursor), autosave, reload, publish, find it
 * with the search page, and read it as a guest with the image shown.
 */
const { newPage, signedInPage } = browserSuite({ STORAGE_FSYNC: 'off' })

describe('a lab story', () => {
  test('is written with an image, autosaved, published, found by search and read by a guest', async () => {
    const page = await signedInPage('mio_stories')
    const errors = collectPageErrors(page)

    await page.goto('/mio_stories/labs_stories/create')
    await waitForHydration(page)
    await page.getByLabel('タイトル', { exact: true }).fill('グラフ描画で目盛りが重なった話')
    // The first autosave creates the draft and moves the editor to its address.
    await page.waitForURL(/\/mio_stories\/labs_stories\/[0-9a-z]{16}\/edit$/)
    const editUrl = page.url()
    await waitForHydration(page)
    const body = await markdownEditor(page, '本文（Markdown）')
    await body.fill('## 軸の設定\n\n目盛りの間隔を広げて解決しました。\n\n')
    await page.getByLabel('画像を追加').setInputFiles({
      name: 'graph.png',
      mimeType: 'image/png',
      buffer: PNG_1X1,
    })
    await expect.poll(() => page.getByText('graph.png をアップロードしました。').count()).toBe(1)
    const preview = page.locator(
      '[id$="-panel-preview"] img[alt="グラフ描画で目盛りが重なった話 の画像 1"]',
    )
    await expect.poll(() => preview.count()).toBe(1)
    const imageSrc = await preview.getAttribute('src')
    expect(imageSrc).toMatch(/^\/s3\/[^/]+\/public\/ap-northeast-1(:|%3A)[0-9a-f-]+\/stories\//)
    await expect
      .poll(() => page.locator('[data-save-state]').first().getAttribute('data-save-state'))
      .toBe('saved')

    // Saved without a save button: a reload shows the text and the image's Markdown.
    await page.goto(editUrl)
    await waitForHydration(page)
    const saved = await page.locator('textarea[name="body"]').inputValue()
    expect(saved).toContain('目盛りの間隔を広げて解決しました。')
    expect(saved).toContain(`![グラフ描画で目盛りが重なった話 の画像 1](${imageSrc})`)

    const storyPath = new URL(editUrl).pathname.replace(/\/edit$/, '')
    const guest = await newPage()
    const guestErrors = collectPageErrors(guest)
    expect((await guest.goto(storyPath))?.status()).toBe(404)

    await page.getByRole('button', { name: '公開する' }).click()
    await expect
      .poll(() => page.locator('[data-publication-status]').getAttribute('data-publication-status'))
      .toBe('published')

    expect((await guest.goto(`/search?q=${encodeURIComponent('目盛り')}`))?.status()).toBe(200)
    await waitForHydration(guest)
    await guest.getByRole('link', { name: 'グラフ描画で目盛りが重なった話' }).click()
    await guest.waitForURL(new RegExp(`${storyPath}$`))
    await expect.poll(() => guest.locator('.markdown-body h2').textContent()).toBe('軸の設定')
    const shown = guest.locator('.markdown-body img[alt="グラフ描画で目盛りが重なった話 の画像 1"]')
    await expect
      .poll(() => shown.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBe(1)
    expect(errors).toEqual([])
    expect(guestErrors).toEqual([])
  })
})
