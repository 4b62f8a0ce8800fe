import { describe, expect, test } from 'vitest'
import { collectPageErrors, waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * The learning history on a phone (390 px): the heatmap names its months and weekdays, has a
 * legend, and opens at today's end; the time zone it counts in is chosen from common zones or
 * found by searching all of them.
 */
const site = browserSuite()

describe('the learning history', () => {
  test('the heatmap has month and weekday names and a legend, and opens scrolled to today', async () => {
    const page = await site.signedInPage('hanako_history')
    const errors = collectPageErrors(page)
    await page.goto('/histories')
    await waitForHydration(page)

    const months = await page.locator('[data-month-label]').allTextContents()
    expect(months.length).toBeGreaterThanOrEqual(12)
    for (const month of months) expect(month).toMatch(/^(1[0-2]|[1-9])月$/)
    expect(await page.locator('[data-weekday-label]').allTextContents()).toEqual(['月', '水', '金'])
    const legend = page.locator('[data-heatmap-legend]')
    expect((await legend.textContent())?.replace(/\s/g, '')).toBe('少ない多い')
    expect(await legend.locator('[data-legend-level]').count()).toBe(5)
    // The legend's swatches are the cells' own colours: an empty day matches the lightest.
    const emptyCell = page.locator('[data-level="0"]').first()
    const colourOf = (element: Element) => getComputedStyle(element).backgroundColor
    expect(await emptyCell.evaluate(colourOf)).toBe(
      await legend.locator('[data-legend-level="0"]').evaluate(colourOf),
    )
    // Each day still says its date and count.
    const today = page.locator('[data-day]').last()
    expect(await today.getAttribute('aria-label')).toMatch(
      /^\d{4}年\d{1,2}月\d{1,2}日（.）: 記録なし$/,
    )
    expect(await today.getAttribute('title')).toBe(await today.getAttribute('aria-label'))

    // On a phone the year is wider than the screen; the newest week is in view without scrolling.
    const scroll = await page.locator('[data-heatmap-scroll]').evaluate((element) => ({
      scrollLeft: element.scrollLeft,
      clientWidth: element.clientWidth,
      scrollWidth: element.scrollWidth,
    }))
    expect(scroll.scrollWidth).toBeGreaterThan(scroll.clientWidth)
    expect(scroll.scrollLeft + scroll.clientWidth).toBeGreaterThanOrEqual(scroll.scrollWidth - 1)
    expect(await today.isVisible()).toBe(true)
    const box = await today.boundingBox()
    expect(box && box.x + box.width).toBeLessThanOrEqual(390)
    expect(errors).toEqual([])
  })

  test('the time zone offers Tokyo first, finds any zone by search, and saves it', async () => {
    const page = await site.signedInPage('taro_timezone')
    const errors = collectPageErrors(page)
    await page.goto('/settings')
    await waitForHydration(page)
    const zone = page.getByRole('combobox', { name: 'タイムゾーン', exact: true })
    const offered = () =>
      zone
        .locator('option')
        .evaluateAll((all) =>
          all.map((option) => [(option as HTMLOptionElement).value, option.textContent]),
        )
    expect(await zone.inputValue()).toBe('Asia/Tokyo')
    const all = await offered()
    expect(all.slice(0, 4)).toEqual([
      ['Asia/Tokyo', '日本（東京） Asia/Tokyo'],
      ['Asia/Seoul', '韓国（ソウル） Asia/Seoul'],
      ['Asia/Shanghai', '中国（上海） Asia/Shanghai'],
      ['Asia/Taipei', '台湾（台北） Asia/Taipei'],
    ])
    // Every IANA zone is there, each once.
    expect(all.length).toBeGreaterThan(400)
    expect(new Set(all.map(([value]) => value)).size).toBe(all.length)

    // Typing narrows the list; the chosen zone stays in it, so nothing changes until one picks.
    const search = page.getByRole('searchbox', { name: 'タイムゾーンを検索' })
    await search.fill('paulo')
    await expect.poll(offered).toEqual([
      ['Asia/Tokyo', '日本（東京） Asia/Tokyo'],
      ['America/Sao_Paulo', 'America/Sao_Paulo'],
    ])
    await page.getByRole('status').filter({ hasText: '1 件見つかりました' }).waitFor()
    // Japanese names are searchable too.
    await search.fill('ソウル')
    await expect
      .poll(async () => (await offered()).map(([value]) => value))
      .toEqual(['Asia/Tokyo', 'Asia/Seoul'])
    await search.fill('paulo')
    await zone.selectOption('America/Sao_Paulo')
    await page.getByRole('button', { name: 'プロフィールを保存する' }).click()
    await page.getByText('プロフィールを保存しました。').waitFor()
    await page.reload()
    await waitForHydration(page)
    expect(await zone.inputValue()).toBe('America/Sao_Paulo')
    await page.goto('/histories')
    await page.getByText('日付は America/Sao_Paulo の時刻で数えています').waitFor()
    expect(errors).toEqual([])
  })
})
