import { describe, expect, test } from 'vitest'
import { axeViolationsInBothThemes, colourScheme } from './axe.ts'
import { collectPageErrors, waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * The theme choice in the footer: the system's by default (following it as it changes), light
 * or dark when chosen, remembered across pages and reloads, and in place before the first paint,
 * so no page flashes the other theme.
 */
const site = browserSuite()

const theme = (page: import('playwright-core').Page) =>
  page.evaluate(() => ({
    theme: document.documentElement.dataset.theme,
    background: getComputedStyle(document.body).backgroundColor,
  }))

describe('the theme', () => {
  test('follows the system, then the learner’s choice, remembered and set before paint', async () => {
    const page = await site.newPage()
    const errors = collectPageErrors(page)
    // What the document's theme is at the moment <body> appears, before anything is painted.
    await page.addInitScript(() => {
      new MutationObserver((_changes, observer) => {
        if (!document.body) return
        ;(window as unknown as { themeAtBody?: string }).themeAtBody =
          document.documentElement.dataset.theme ?? 'none'
        observer.disconnect()
      }).observe(document, { childList: true, subtree: true })
    })
    await colourScheme(page, 'dark')
    await page.goto('/')
    await waitForHydration(page)
    const dark = await theme(page)
    expect(dark.theme).toBe('dark')
    await colourScheme(page, 'light')
    const light = await theme(page)
    expect(light.theme).toBe('light')
    expect(light.background).not.toBe(dark.background)

    // Dark chosen while the system is light: kept on the next page and after a reload, from
    // the first paint.
    const toggle = page.locator('[data-theme-toggle]')
    await toggle.getByTitle('ダーク').click()
    await expect.poll(() => theme(page)).toEqual(dark)
    await page.goto('/courses')
    expect(await page.evaluate(() => (window as { themeAtBody?: string }).themeAtBody)).toBe('dark')
    await page.reload()
    expect(await page.evaluate(() => (window as { themeAtBody?: string }).themeAtBody)).toBe('dark')
    await waitForHydration(page)
    expect(await toggle.getByRole('radio', { name: 'ダーク' }).isChecked()).toBe(true)
    expect((await theme(page)).theme).toBe('dark')

    // Back to the system's: it follows the system again.
    await toggle.getByTitle('端末に合わせる').click()
    await expect.poll(async () => (await theme(page)).theme).toBe('light')
    await colourScheme(page, 'dark')
    expect((await theme(page)).theme).toBe('dark')
    await colourScheme(page, 'light')
    expect(await axeViolationsInBothThemes(page)).toEqual([])
    expect(errors).toEqual([])
  })
})
