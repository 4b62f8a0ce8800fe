import { describe, expect, test } from 'vitest'
import { demoReadingPaths } from '#tests/support/first-load.ts'
import { axeAtBothSizes, SCREENS } from './axe.ts'
import { collectPageErrors, waitForHydration } from './browser.ts'
import { overflowPastLayout } from './layout.ts'
import { browserSuite } from './suite.ts'

/**
 * A signed-in learner's home opens with their week: the streak, this week's row of the
 * history's heatmap and today's goal, which a lesson done on the page meets. It fits a phone
 * and a laptop, light and dark, with nothing for axe to find.
 */
const site = browserSuite()

describe('the signed-in home', () => {
  test('shows the learner’s week, and a lesson done today meets today’s goal', async () => {
    const page = await site.signedInPage('sora_week')
    const errors = collectPageErrors(page)
    await page.goto('/')
    const week = page.getByRole('region', { name: '今週の学習' })
    await week.waitFor()
    expect(await week.locator('[data-goal]').getAttribute('data-goal')).toBe('open')
    expect(await week.getByRole('listitem').count()).toBe(7)

    const { lesson } = await demoReadingPaths(site.server.url)
    await page.goto(lesson)
    await waitForHydration(page)
    await page
      .getByRole('button', { name: /完了にする/ })
      .first()
      .click()
    await page
      .getByRole('button', { name: /完了を取り消す|完了済み/ })
      .first()
      .waitFor()

    await page.goto('/')
    await waitForHydration(page)
    expect(await week.locator('[data-goal]').getAttribute('data-goal')).toBe('met')
    expect(await week.locator('[data-streak]').textContent()).toContain('1 日')
    const today = week.locator('[aria-current="date"]')
    expect(await today.textContent()).toContain('1 件')
    expect(await today.locator('[data-level]').getAttribute('data-level')).toBe('1')

    const a11y = await axeAtBothSizes(page)
    for (const screen of SCREENS) {
      await page.setViewportSize(screen)
      expect(await overflowPastLayout(page), screen.name).toEqual({
        height: 0,
        width: 0,
        escaped: [],
      })
    }
    expect(a11y).toEqual([])
    expect(errors).toEqual([])
  })
})
