import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { CLIENT_ID, signedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { collectPageErrors, launchBrowser, newPhonePage, waitForHydration } from './browser.ts'

/**
 * People in Chromium: follow and unfollow from a profile (the state survives a reload), edit
 * the profile and time zone in /settings, and copy a study's link with the share buttons.
 */
const SITE = 'http://techlab.example'
let server: TestServer
let browser: Browser
let writer: string
let reader: string

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_BASE_URL: SITE })
  browser = await launchBrowser()
  writer = amplifyCookieHeader(CLIENT_ID, 'nana_writer', await signedInUser(server, 'nana_writer'))
  reader = amplifyCookieHeader(CLIENT_ID, 'riku_reader', await signedInUser(server, 'riku_reader'))
})
afterAll(async () => {
  // Closing the browser closes every page's context with it.
  await browser?.close()
  await server?.close()
})

const newPage = (cookieHeader?: string) => newPhonePage(browser, server.url, cookieHeader)

async function api(cookie: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}/api${path}`, {
    method,
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  })
  expect(response.status, `${method} ${path}`).toBeLessThan(300)
  return response.json()
}

describe('people', () => {
  test('follows and unfollows from the profile, with the counts following along', async () => {
    const page = await newPage(reader)
    const errors = collectPageErrors(page)
    await page.goto('/nana_writer')
    await waitForHydration(page)
    const button = page.locator('button[aria-pressed][data-state]')
    const followers = page.locator('[data-count="followers"]')
    await expect.poll(() => button.getAttribute('data-state')).toBe('not-following')
    expect(await followers.textContent()).toBe('0')

    await button.click()
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true')
    expect(await button.textContent()).toBe('フォロー中')
    expect(await followers.textContent()).toBe('1')

    // The state is the server's: a reload asks /api again.
    await page.reload()
    await waitForHydration(page)
    await expect.poll(() => button.getAttribute('data-state')).toBe('following')
    await page
      .getByRole('link', { name: /フォロワー$/ })
      .first()
      .click()
    await page.waitForURL(/\/nana_writer\/followers$/)
    await expect
      .poll(() => page.getByRole('link', { name: 'riku_reader' }).count())
      .toBeGreaterThan(0)

    await button.click()
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('false')
    expect(await followers.textContent()).toBe('0')
    expect(errors).toEqual([])
  })

  test('shows a guest a sign-in link and the owner an edit link instead of the button', async () => {
    const guest = await newPage()
    await guest.goto('/nana_writer')
    await waitForHydration(guest)
    expect(await guest.getByRole('link', { name: 'フォローする' }).getAttribute('href')).toBe(
      '/auth/signin?redirectTo=%2Fnana_writer',
    )
    const owner = await newPage(writer)
    await owner.goto('/nana_writer')
    await waitForHydration(owner)
    expect(await owner.getByRole('link', { name: 'プロフィールを編集' }).getAttribute('href')).toBe(
      '/settings#profile',
    )
  })

  test('edits the profile and time zone in /settings, with field errors from the server', async () => {
    const page = await newPage(writer)
    const errors = collectPageErrors(page)
    await page.goto('/settings')
    await waitForHydration(page)
    const form = page.locator('#profile')
    await form.getByLabel('表示名').fill('ななせ')
    await form.getByLabel('自己紹介').fill('フロントエンドを勉強しています')
    await form.getByLabel('リンク').fill('https://example.com/nana\nnot a url')
    await form.getByLabel('タイムゾーン', { exact: true }).selectOption('America/New_York')
    await form.getByRole('button', { name: 'プロフィールを保存する' }).click()
    await expect
      .poll(() =>
        form.getByText('リンクは http:// または https:// で始まる URL にしてください').count(),
      )
      .toBe(1)
    await form.getByLabel('リンク').fill('https://example.com/nana')
    await form.getByRole('button', { name: 'プロフィールを保存する' }).click()
    await expect.poll(() => form.getByText('プロフィールを保存しました。').count()).toBe(1)

    await page.goto('/nana_writer')
    await waitForHydration(page)
    expect(await page.locator('h1').textContent()).toBe('ななせ')
    expect(await page.getByText('フロントエンドを勉強しています').count()).toBe(1)
    // A published study puts a line in the timeline, its time written in the learner's zone.
    const study = await api(writer, 'POST', '/studies', { title: '履歴に残るスタディ' })
    await api(writer, 'POST', `/studies/${study.id}/publish`, { revision: study.revision })
    await page.goto('/histories')
    await waitForHydration(page)
    expect(await page.getByText('America/New_York', { exact: false }).count()).toBe(1)
    expect(await page.getByRole('link', { name: '履歴に残るスタディ' }).count()).toBe(1)
    expect(await page.locator('[data-stat="current"]').textContent()).toBe('1 日')
    expect(errors).toEqual([])
  })

  test("copies a published study's address with the share buttons", async () => {
    const study = await api(writer, 'POST', '/studies', { title: '共有のテスト', notes: '本文' })
    await api(writer, 'POST', `/studies/${study.id}/publish`, { revision: study.revision })
    const page = await newPage()
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: server.url,
    })
    const errors = collectPageErrors(page)
    await page.goto(`/nana_writer/studies/${study.id}`)
    await waitForHydration(page)
    await page.getByRole('button', { name: 'リンクをコピー' }).click()
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'リンクをコピーしました' }).count())
      .toBe(1)
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${SITE}/nana_writer/studies/${study.id}`,
    )
    expect(await page.getByRole('link', { name: 'LINE で送る' }).getAttribute('href')).toBe(
      `https://social-plugins.line.me/lineit/share?url=${encodeURIComponent(`${SITE}/nana_writer/studies/${study.id}`)}`,
    )
    expect(errors).toEqual([])
  })
})
