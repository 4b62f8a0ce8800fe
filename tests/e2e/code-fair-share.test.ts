import { describe, expect, test } from 'vitest'
import { waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * The code sandbox's refusal of a learner past their share, as the learner sees it: the page
 * says in Japanese that it is busy and when to try again (the card's error line, the same in
 * /example and a study's exercise page: QuestionAnswer).
 */
const site = browserSuite({
  CODE_SUBMISSIONS_PER_USER_PER_MINUTE: '1000',
  CODE_SANDBOX_RUN_SECONDS_PER_LEARNER_PER_MINUTE: '1',
})

describe('the fair share in the page', () => {
  test('a guest past their share reads 「混み合っています」 and a retry time', {
    timeout: 120_000,
  }, async () => {
    const guest = await site.newPage()
    await guest.goto('/example')
    await waitForHydration(guest)
    const code = guest.locator('section[data-question-id="sample-js-sum"]')
    const editor = code
      .locator('.cm-content')
      .and(code.getByRole('textbox', { name: 'あなたのコード' }))
    await editor.waitFor()
    // A loop holds the server's worker its whole time limit: more than this guest's second.
    await editor.fill('while (true) {}')
    await code.getByRole('button', { name: '提出' }).click()
    await expect
      .poll(() => code.locator('[data-verdict]').getAttribute('data-verdict'), { timeout: 60_000 })
      .toBe('incorrect')
    await editor.fill('while (true) {} // again')
    await code.getByRole('button', { name: '提出' }).click()
    const alert = code.getByRole('alert')
    await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toMatch(/混み合っています/)
    expect(await alert.textContent()).toMatch(/\d+ 秒ほど待ってから/)
  })
})
