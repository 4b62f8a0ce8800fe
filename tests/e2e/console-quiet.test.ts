import type { Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * No page prints a warning or an error to the console, for a guest or a signed-in user (issue
 * 14 item 7: Amplify's custom-endpoint warning was printed on every page). A page is watched
 * from the first byte until it is hydrated and its network is idle, so work done after
 * hydration (the session keeper, Amplify's configuration) is included.
 */
const suite = browserSuite()

const GUEST_PAGES = [
  '/',
  '/courses',
  '/studies',
  '/labs',
  '/labs_stories',
  '/search?q=Python',
  '/terms',
  '/auth/signin',
  '/auth/signup',
  '/auth/confirm',
  '/auth/forgotPassword',
  '/no-such-page',
]

const SIGNED_IN_PAGES = [
  '/',
  '/courses',
  '/settings',
  '/notifications',
  '/drafts',
  '/histories',
  '/studies',
]

/** Console warnings and errors, and uncaught errors, while the page loads and settles. */
async function noise(page: Page, path: string): Promise<string[]> {
  const heard: string[] = []
  const listen = (message: { type(): string; text(): string }) => {
    const type = message.type()
    // A 404 page answers 404 on purpose; Chromium logs that as a failed resource.
    if (message.text().startsWith('Failed to load resource')) return
    if (type === 'warning' || type === 'error') heard.push(`${path}: ${type}: ${message.text()}`)
  }
  const uncaught = (error: Error) => heard.push(`${path}: pageerror: ${error.message}`)
  page.on('console', listen)
  page.on('pageerror', uncaught)
  await page.goto(path)
  await waitForHydration(page)
  await page.waitForLoadState('networkidle')
  page.off('console', listen)
  page.off('pageerror', uncaught)
  return heard
}

test('a guest hears nothing in the console', async () => {
  const page = await suite.newPage()
  const heard: string[] = []
  for (const path of GUEST_PAGES) heard.push(...(await noise(page, path)))
  expect(heard).toEqual([])
})

test('a signed-in user hears nothing in the console', async () => {
  const page = await suite.signedInPage('quiet_reader')
  const heard: string[] = []
  for (const path of [...SIGNED_IN_PAGES, '/quiet_reader']) heard.push(...(await noise(page, path)))
  expect(heard).toEqual([])
})
