import { beforeAll, describe, expect, test } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { callApi } from '#tests/support/http.ts'
import { CLIENT_ID, signedInUser } from '#tests/support/signed-in-user.ts'
import { SCREENS } from './axe.ts'
import { collectPageErrors, waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * The small things that make a site feel unfinished, each as a person sees it in Chromium:
 * code in the question list, tags apart on cards, no 「保存済み」 before anything is saved, the
 * site's own confirmation dialog, the admin link, no likes or comments on one's own draft, the
 * history's six numbers in one row, a search box that says what to type, and one row of
 * profile tabs on a phone.
 */
const ADMIN = 'kanri_small'
const ME = 'mika_small'
const site = browserSuite({ ADMIN_USERS: ADMIN })
const cookies: Record<string, string> = {}
let study = ''
let draft = ''

async function api(who: string, method: string, path: string, body?: unknown) {
  const answer = await callApi(site.server.url, method, path, cookies[who], body)
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300)
  return answer.body
}

beforeAll(async () => {
  for (const name of [ADMIN, ME]) {
    cookies[name] = amplifyCookieHeader(CLIENT_ID, name, await signedInUser(site.server, name))
  }
  const created = await api(ME, 'POST', '/studies', {
    title: '配列の長さ',
    notes: '`length` で数えます。',
    tags: ['css', 'javascript'],
  })
  await api(ME, 'POST', `/studies/${created.id}/questions`, {
    kind: 'text',
    prompt: '`[1, 2, 3].length` の値は？',
    acceptedAnswers: ['3'],
    explanation: '要素は 3 つです。',
    tags: ['css', 'javascript'],
  })
  await api(ME, 'POST', `/studies/${created.id}/publish`, { revision: created.revision })
  study = created.id
  draft = (await api(ME, 'POST', '/studies', { title: '書きかけのスタディ', notes: 'メモ' })).id
}, 60_000)

describe('small things', () => {
  test('the question list keeps inline code as written', async () => {
    const page = await site.newPage(cookies[ME])
    await page.goto(`/${ME}/studies/${study}/exercises/edit`)
    const list = page.getByRole('list', { name: '問題の一覧' })
    expect(await list.textContent()).toContain('[1, 2, 3].length の値は？')
  })

  test('tags stand apart on cards', async () => {
    const page = await site.newPage()
    for (const path of ['/exercises', '/studies', `/${ME}/studies/${study}`]) {
      await page.goto(path)
      const group = page.locator('[data-tag-links]').filter({ hasText: '#javascript' }).first()
      const [css, javascript] = await group.getByRole('link').all()
      const left = await css?.boundingBox()
      const right = await javascript?.boundingBox()
      expect(left && right && right.x - (left.x + left.width), path).toBeGreaterThanOrEqual(6)
    }
  })

  test('an empty create form claims nothing is saved', async () => {
    const page = await site.newPage(cookies[ME])
    for (const kind of ['studies', 'labs', 'labs_stories', 'courses']) {
      await page.goto(`/${ME}/${kind}/create`)
      await waitForHydration(page)
      expect(await page.getByText('保存済み').count(), kind).toBe(0)
    }
    await page.goto(`/${ME}/studies/${study}/exercises/create`)
    await waitForHydration(page)
    expect(await page.getByText('保存済み').count()).toBe(0)
  })

  test('deleting asks in the site’s own dialog: Escape and キャンセル keep the draft', async () => {
    const page = await site.newPage(cookies[ME])
    const errors = collectPageErrors(page)
    let native = 0
    page.on('dialog', (dialog) => {
      native += 1
      void dialog.dismiss()
    })
    await page.goto('/drafts')
    await waitForHydration(page)
    const row = page.getByRole('listitem').filter({ hasText: '書きかけのスタディ' })
    const ask = page.getByRole('dialog', { name: '「書きかけのスタディ」を削除しますか？' })
    await row.getByRole('button', { name: '削除する' }).click()
    await ask.waitFor()
    // Focus starts on the safe answer.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('キャンセル')
    await page.keyboard.press('Escape')
    await ask.waitFor({ state: 'detached' })
    await row.getByRole('button', { name: '削除する' }).click()
    await ask.getByRole('button', { name: 'キャンセル' }).click()
    await ask.waitFor({ state: 'detached' })
    expect(await row.count()).toBe(1)
    await row.getByRole('button', { name: '削除する' }).click()
    await ask.getByRole('button', { name: '削除する' }).click()
    await row.waitFor({ state: 'detached' })
    expect(native).toBe(0)
    expect(errors).toEqual([])
    // Restore the draft the next test reads.
    draft = (await api(ME, 'POST', '/studies', { title: '書きかけのスタディ', notes: 'メモ' })).id
  })

  test('an admin finds the admin pages in the account menu; others do not', async () => {
    for (const [who, count] of [
      [ADMIN, 1],
      [ME, 0],
    ] as const) {
      const page = await site.newPage(cookies[who])
      await page.goto('/')
      await waitForHydration(page)
      await page.locator('[data-user-menu] summary').click()
      const link = page.locator('[data-user-menu]').getByRole('link', { name: '管理画面' })
      expect(await link.count(), who).toBe(count)
      if (count) {
        await link.click()
        await page.waitForURL(/\/admin\//)
      }
    }
  })

  test('one’s own draft shows no like or comment widgets', async () => {
    const page = await site.newPage(cookies[ME])
    await page.goto(`/${ME}/studies/${draft}`)
    await page.getByRole('heading', { name: '書きかけのスタディ' }).waitFor()
    expect(await page.getByRole('button', { name: /いいね/ }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'コメントする' }).count()).toBe(0)
    await page.goto(`/${ME}/studies/${study}`)
    await page.getByRole('button', { name: /いいね/ }).waitFor()
  })

  test('the history’s six numbers sit in one row at 1280 px', async () => {
    const page = await site.newPage(cookies[ME])
    await page.setViewportSize(SCREENS[0])
    await page.goto('/histories')
    const tops = await page
      .locator('dl > div')
      .evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().top))
    expect(tops).toHaveLength(6)
    expect(new Set(tops).size).toBe(1)
  })

  test('the header’s search box says what to type', async () => {
    const page = await site.newPage()
    await page.setViewportSize(SCREENS[0])
    await page.goto('/')
    const box = page.locator('header').getByRole('searchbox', { name: 'サイト内を検索' })
    expect(await box.getAttribute('placeholder')).toBe('キーワード')
  })

  test('profile tabs stay on one line on a phone, the chosen one in view', async () => {
    const page = await site.newPage()
    await page.setViewportSize(SCREENS[1])
    await page.goto(`/${ME}/following`)
    await waitForHydration(page)
    const tabs = page.locator('[data-profile-tabs] a')
    const tops = await tabs.evaluateAll((links) =>
      links.map((link) => link.getBoundingClientRect().top),
    )
    expect(tops).toHaveLength(6)
    expect(new Set(tops).size).toBe(1)
    const current = await page.locator('[data-profile-tabs] [aria-current="page"]').boundingBox()
    expect(current && current.x >= 0 && current.x + current.width <= SCREENS[1].width).toBe(true)
  })

  test('file inputs are a Japanese button and a drop zone, the same on every upload', async () => {
    const page = await site.newPage(cookies[ME])
    for (const path of ['/settings', `/${ME}/labs/create`]) {
      await page.goto(path)
      await waitForHydration(page)
      const zone = page.locator('[data-drop-zone]').first()
      expect(await zone.textContent(), path).toContain('ファイルを選ぶ')
      expect(await zone.textContent(), path).toContain('ドラッグ＆ドロップ')
      // The browser's own button ("Choose File") is not what a person sees.
      const input = zone.locator('input[type="file"]')
      const box = await input.boundingBox()
      expect(box && box.width <= 1 && box.height <= 1, path).toBe(true)
    }
    // A file dropped on the zone is taken as if chosen: a PDF is refused, in Japanese.
    await page.goto('/settings')
    await waitForHydration(page)
    const zone = page.locator('[data-drop-zone]').first()
    const files = await page.evaluateHandle(() => {
      const transfer = new DataTransfer()
      transfer.items.add(new File(['%PDF-1.4'], 'memo.pdf', { type: 'application/pdf' }))
      return transfer
    })
    await zone.dispatchEvent('dragover', { dataTransfer: files })
    await zone.dispatchEvent('drop', { dataTransfer: files })
    await page.getByText('このファイルの種類はアップロードできません').waitFor()
  })

  test('the comment box starts as one line, grows on focus, and previews in a tab', async () => {
    const page = await site.newPage(cookies[ADMIN])
    await page.goto(`/${ME}/studies/${study}`)
    await waitForHydration(page)
    const box = page.getByRole('textbox', { name: 'コメント（Markdown）' })
    const closed = (await box.boundingBox())?.height ?? 0
    expect(closed).toBeLessThan(60)
    // One column: nothing sits beside it.
    expect(await page.getByRole('tabpanel', { name: 'プレビュー' }).count()).toBe(0)
    await box.focus()
    await expect
      .poll(async () => (await box.boundingBox())?.height ?? 0)
      .toBeGreaterThan(closed * 2)
    await box.fill('**太字**のコメント')
    await page.getByRole('tab', { name: 'プレビュー' }).click()
    const preview = page.getByRole('tabpanel', { name: 'プレビュー' })
    await preview.locator('strong', { hasText: '太字' }).waitFor()
    expect(await box.isVisible()).toBe(false)
    await page.getByRole('tab', { name: '書く' }).click()
    expect(await box.inputValue()).toBe('**太字**のコメント')
  })
})
