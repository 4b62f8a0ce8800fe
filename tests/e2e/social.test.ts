import { describe, expect, test } from 'vitest'
import { callApi } from '#tests/support/http.ts'
import { signedInCookie } from '#tests/support/signed-in-user.ts'
import { collectPageErrors, waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * Two users in Chromium: one follows the other, likes and comments on their study; the author
 * sees the unread badge, opens the list (which reads it), and answers the comment.
 */
const site = browserSuite()

async function publishedStudy(cookie: string, title: string): Promise<string> {
  const created = await callApi(site.server.url, 'POST', '/studies', cookie, {
    title,
    notes: '# 本文',
  })
  const { id } = created.body as { id: string }
  const published = await callApi(site.server.url, 'POST', `/studies/${id}/publish`, cookie, {
    revision: 1,
  })
  expect(published.status).toBe(200)
  return id
}

describe('likes, comments and notifications', () => {
  test('a reader follows, likes and comments; the author sees the badge and the list, and replies', async () => {
    const authorCookie = await signedInCookie(site.server, 'nao_author')
    const readerCookie = await signedInCookie(site.server, 'rin_reader')
    const studyId = await publishedStudy(authorCookie, '非同期処理の基本')
    const studyPath = `/nao_author/studies/${studyId}`

    const reader = await site.newPage(readerCookie)
    const readerErrors = collectPageErrors(reader)
    await reader.goto('/nao_author')
    await waitForHydration(reader)
    // Named by its state: 「フォローする」 becomes 「フォロー中」.
    const follow = reader.getByRole('button', { name: /^フォロー(する|中)$/ })
    await follow.click()
    await expect.poll(() => follow.getAttribute('data-state')).toBe('following')
    await reader.goto(studyPath)
    await waitForHydration(reader)
    const like = reader.getByRole('button', { name: /いいね/ })
    await like.click()
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true')
    await expect.poll(() => reader.getByTestId('like-count').textContent()).toBe('1')

    await reader
      .getByRole('textbox', { name: 'コメント（Markdown）' })
      .fill('**とても**わかりやすいです')
    await reader.getByRole('button', { name: 'コメントする' }).click()
    const comment = reader.getByRole('article', { name: 'rin_readerのコメント' })
    await comment.locator('strong', { hasText: 'とても' }).waitFor()
    await expect.poll(() => reader.getByTestId('comment-count').textContent()).toBe('1')
    // The like and the comment were saved: a reload shows them.
    await reader.reload()
    await waitForHydration(reader)
    await expect.poll(() => reader.getByTestId('like-count').textContent()).toBe('1')
    await comment.waitFor()
    expect(readerErrors).toEqual([])

    const author = await site.newPage(authorCookie)
    const authorErrors = collectPageErrors(author)
    await author.goto('/')
    await waitForHydration(author)
    const bell = author.getByRole('link', { name: /^通知/ })
    const bellNamed = (name: string) => author.getByRole('link', { name, exact: true }).count()
    expect(await bellNamed('通知（未読 3 件）')).toBe(1)
    expect(await author.getByTestId('unread-badge').textContent()).toBe('3')
    await bell.click()
    await author.waitForURL('**/notifications')
    const list = author.getByRole('region', { name: '通知' })
    await list
      .getByText('rin_reader さんがあなたのスタディ「非同期処理の基本」にコメントしました')
      .waitFor()
    await list.getByText('にいいねしました').waitFor()
    await list.getByText('rin_reader さんがあなたをフォローしました').waitFor()
    // Opening the list read it: the badge goes, the items opened as unread stay marked.
    await expect.poll(() => bellNamed('通知')).toBe(1)
    expect(await author.getByTestId('unread-badge').count()).toBe(0)
    expect(await list.getByText('未読').count()).toBe(3)

    await list.getByText(/にコメントしました/).click()
    await author.waitForURL(`**${studyPath}#comment-*`)
    const received = author.getByRole('article', { name: 'rin_readerのコメント' })
    await received.getByRole('button', { name: '返信' }).click()
    await author.getByRole('textbox', { name: '返信（Markdown）' }).fill('ありがとうございます！')
    await author.getByRole('button', { name: '返信する' }).click()
    await author
      .getByRole('list', { name: '返信' })
      .getByRole('article', { name: 'nao_authorのコメント' })
      .getByText('ありがとうございます！')
      .waitFor()
    await expect.poll(() => author.getByTestId('comment-count').textContent()).toBe('2')
    expect(authorErrors).toEqual([])

    // The reader hears of the reply.
    await reader.goto('/notifications')
    await reader
      .getByText(
        'nao_author さんがスタディ「非同期処理の基本」についたあなたのコメントに返信しました',
      )
      .waitFor()
  })

  test('a guest sees the count and comments with links to sign in, and loads more comments', async () => {
    const authorCookie = await signedInCookie(site.server, 'guest_author')
    const studyId = await publishedStudy(authorCookie, 'ゲストが読むスタディ')
    const studyPath = `/guest_author/studies/${studyId}`
    const guest = await site.newPage()
    await guest.goto(studyPath)
    await waitForHydration(guest)
    await guest.getByText('まだコメントはありません。').waitFor()
    expect(await guest.getByTestId('like-count').textContent()).toBe('0')
    expect(
      await guest.getByRole('link', { name: 'ログインしていいねする' }).getAttribute('href'),
    ).toBe(`/auth/signin?redirectTo=${encodeURIComponent(studyPath)}`)
    expect(await guest.getByRole('textbox', { name: 'コメント（Markdown）' }).count()).toBe(0)

    // One more comment than the first page holds.
    for (let index = 1; index <= 21; index++) {
      const posted = await callApi(
        site.server.url,
        'POST',
        `/comments/study/${studyId}`,
        authorCookie,
        {
          body: `メモ ${index}`,
        },
      )
      expect(posted.status).toBe(201)
    }
    const comments = guest.getByRole('article', { name: 'guest_authorのコメント' })
    // The guest page cache may answer with the empty page for a few seconds.
    await expect
      .poll(
        async () => {
          await guest.goto(studyPath)
          return guest.getByTestId('comment-count').textContent()
        },
        { timeout: 15_000, interval: 1_000 },
      )
      .toBe('21')
    await waitForHydration(guest)
    expect(await comments.count()).toBe(20)
    await guest.getByRole('button', { name: 'さらに読み込む' }).click()
    await comments.getByText('メモ 1', { exact: true }).waitFor()
    expect(await comments.count()).toBe(21)
    expect(await guest.getByRole('button', { name: 'さらに読み込む' }).count()).toBe(0)
  })
})
