import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { collectPageErrors, waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * 「完了にする」 and its undo in Chromium: a learner marks a demo lesson done by mistake and
 * takes it back; the course's progress and the learning history follow both ways.
 */
const site = browserSuite()

/** The first lesson of the newest free demo course, from the API as any client reads it. */
async function firstFreeLesson() {
  const answer = await fetch(`${site.server.url}/api/courses?access=free&limit=1`)
  const card = ((await answer.json()) as { items: { id: string; author: { username: string } }[] })
    .items[0]
  if (!card) throw new Error('the demo content has no free course')
  const coursePath = `/${card.author.username}/courses/${card.id}`
  const course = (await (
    await fetch(`${site.server.url}/api/users/${card.author.username}/courses/${card.id}`)
  ).json()) as { sections: { lessons: { id: string }[] }[] }
  const lesson = course.sections[0]?.lessons[0]
  if (!lesson) throw new Error('the demo course has no lesson')
  return { coursePath, lessonPath: `${coursePath}/lessons/${lesson.id}` }
}

const progressOf = async (page: Page, coursePath: string) => {
  await page.goto(coursePath)
  return (await page.getByText(/^進捗 \d+ \/ \d+ レッスン$/).textContent()) ?? ''
}

const lessonsDoneOf = async (page: Page) => {
  await page.goto('/histories')
  return page.locator('[data-stat="lessons"]').textContent()
}

describe('lesson progress', () => {
  test('a lesson marked done by mistake is undone: progress and history go back', async () => {
    const page = await site.signedInPage('nao_progress')
    const errors = collectPageErrors(page)
    const { coursePath, lessonPath } = await firstFreeLesson()

    await page.goto(lessonPath)
    await waitForHydration(page)
    await page.getByRole('button', { name: '完了にする' }).click()
    await page.getByRole('status').filter({ hasText: '完了しました' }).waitFor()
    expect(await progressOf(page, coursePath)).toMatch(/^進捗 1 \/ \d+ レッスン$/)
    expect(await lessonsDoneOf(page)).toBe('1 件')

    await page.goto(lessonPath)
    await waitForHydration(page)
    await page.getByRole('button', { name: '完了を取り消す' }).click()
    await page.getByRole('button', { name: '完了にする' }).waitFor()
    expect(await page.getByText('完了しました').count()).toBe(0)
    expect(await progressOf(page, coursePath)).toMatch(/^進捗 0 \/ \d+ レッスン$/)
    expect(await lessonsDoneOf(page)).toBe('0 件')
    expect(errors).toEqual([])
  })
})
