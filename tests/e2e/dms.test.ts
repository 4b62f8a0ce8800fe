import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { callAs, directMessageRoom, sendMessage } from '#tests/support/direct-messages.ts'
import { newSignedInUser } from '#tests/support/signed-in-user.ts'
import { axeAtBothSizes } from './axe.ts'
import { collectPageErrors, waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * Direct messages in Chromium with two browser contexts: A starts a room from B's
 * profile, messages cross both ways live, unread counts and read markers follow, older messages
 * load on scrolling up without the view jumping, and axe finds nothing on /dms and /dms/{id}.
 * Each test signs up its own users; those that start in a room get one with a short
 * conversation already in it.
 */
const site = browserSuite({ DM_MESSAGES_PER_USER_PER_MINUTE: '1000' })

/** A room between new users A and B where A asked, B answered and A thanked (3 messages). */
async function conversation() {
  const { room, opener: a, other: b } = await directMessageRoom(site.server, ['akari', 'bunta'])
  await sendMessage(
    site.server,
    a,
    room,
    'こんにちは！\n質問してもいいですか？ https://example.com/q',
  )
  await sendMessage(site.server, b, room, 'どうぞ！ <b>なんでも</b>')
  await sendMessage(site.server, a, room, 'ありがとうございます')
  return { A: a, B: b, room, roomPath: `/dms/${room}` }
}

async function send(page: Page, text: string) {
  await page.locator('textarea[name="body"]').fill(text)
  await page.getByRole('button', { name: '送信' }).click()
}

const messageList = (page: Page) => page.getByRole('log', { name: 'メッセージ' })

describe('direct messages', () => {
  test('A starts a room from B’s profile; messages, unread counts and 既読 cross live', async () => {
    const { username: A, cookie: aCookie } = await newSignedInUser(site.server, 'akari')
    const { username: B, cookie: bCookie } = await newSignedInUser(site.server, 'bunta')
    const a = await site.newPage(aCookie)
    const b = await site.newPage(bCookie)
    const aErrors = collectPageErrors(a)
    const bErrors = collectPageErrors(b)

    await a.goto(`/${B}`)
    await waitForHydration(a)
    await a.getByRole('button', { name: 'メッセージ' }).click()
    await a.waitForURL(/\/dms\/[0-9a-z]+$/)
    const roomPath = new URL(a.url()).pathname
    await waitForHydration(a)
    await expect
      .poll(() => a.getByRole('heading', { level: 1 }).textContent())
      .toContain('さんとのメッセージ')

    // B waits on /dms; A's first message raises B's counts there and in the header.
    await b.goto('/dms')
    await waitForHydration(b)
    await send(a, 'こんにちは！\n質問してもいいですか？ https://example.com/q')
    await expect
      .poll(() => b.locator(`[data-room="${A}"] [data-unread]`).getAttribute('data-unread'), {
        timeout: 15_000,
      })
      .toBe('1')
    await expect
      .poll(() => b.locator('[data-testid="unread-messages-badge"]').textContent(), {
        timeout: 15_000,
      })
      .toBe('1')

    // B opens the room: the message is there (lines and link kept), and A sees 既読 live.
    await b.locator(`[data-room="${A}"] a`).click()
    await b.waitForURL(roomPath)
    await waitForHydration(b)
    const received = messageList(b).getByText('質問してもいいですか？', { exact: false })
    await expect.poll(() => received.count()).toBe(1)
    expect(await messageList(b).getByRole('link', { name: 'https://example.com/q' }).count()).toBe(
      1,
    )
    await expect.poll(() => a.locator('[data-read-marker]').count(), { timeout: 15_000 }).toBe(1)
    await expect
      .poll(() => b.locator('[data-testid="unread-messages-badge"]').count(), { timeout: 15_000 })
      .toBe(0)

    // B answers; A reads it without reloading.
    await send(b, 'どうぞ！ <b>なんでも</b>')
    await expect
      .poll(() => messageList(a).getByText('どうぞ！ <b>なんでも</b>').count(), { timeout: 15_000 })
      .toBe(1)
    await send(a, 'ありがとうございます')
    await expect
      .poll(() => messageList(b).getByText('ありがとうございます').count(), { timeout: 15_000 })
      .toBe(1)

    // A edits its last message within the 10 minutes; B sees 編集済み.
    const mine = messageList(a).locator('li').filter({ hasText: 'ありがとうございます' })
    await mine.getByRole('button', { name: '編集' }).click()
    await mine.getByLabel('メッセージを編集').fill('ありがとうございます！')
    await mine.getByRole('button', { name: '保存' }).click()
    await expect
      .poll(() => messageList(b).getByText('ありがとうございます！').count(), { timeout: 15_000 })
      .toBe(1)
    expect(await messageList(b).getByText('編集済み').count()).toBe(1)

    expect(aErrors).toEqual([])
    expect(bErrors).toEqual([])
  }, 90_000)

  test('older messages load on scrolling up, and the view stays where it was', async () => {
    const { A, B, room, roomPath } = await conversation()
    for (let index = 1; index <= 40; index += 1) {
      await sendMessage(site.server, index % 2 ? A : B, room, `古い順 ${index}`)
    }
    const a = await site.newPage(A.cookie)
    await a.goto(roomPath)
    await waitForHydration(a)
    const items = messageList(a).locator('li[data-message]')
    // The newest page (30) is shown, scrolled to the bottom.
    expect(await items.count()).toBe(30)
    const atBottom = await messageList(a).evaluate(
      (list) => list.scrollHeight - list.scrollTop - list.clientHeight < 2,
    )
    expect(atBottom).toBe(true)

    const firstShown = await items.first().getAttribute('data-message')
    const offsetOf = () =>
      a.evaluate((id) => {
        const list = document.querySelector('[data-message-list]') as HTMLElement
        const item = document.querySelector(`[data-message="${id}"]`) as HTMLElement
        return item.getBoundingClientRect().top - list.getBoundingClientRect().top
      }, firstShown)
    // The older page is held until the view's position is measured, so the test sees the jump
    // a prepend would cause, if the page did not keep its anchor.
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await a.route('**/api/dms/rooms/*/messages?*', async (route) => {
      await held
      await route.continue()
    })
    await messageList(a).evaluate((list) => {
      list.scrollTop = 0
    })
    const before = await offsetOf()
    release()
    await expect.poll(() => items.count(), { timeout: 15_000 }).toBe(43)
    // The message that was at the top is still where the reader saw it (no jump).
    expect(Math.abs((await offsetOf()) - before)).toBeLessThan(4)
    expect(await messageList(a).getByText('こんにちは！', { exact: false }).count()).toBe(1)
  }, 90_000)

  test('a message that arrives while /dms is reloading its list still shows', async () => {
    const C = await newSignedInUser(site.server, 'chika')
    const D = await newSignedInUser(site.server, 'daichi')
    const d = await site.newPage(D.cookie)
    const errors = collectPageErrors(d)
    // The list's next reload is answered at once by the server but handed to the page only
    // when the test says: it read the rooms before C's message to D was stored.
    let hold: (() => void) | undefined
    let answered: Promise<void> | undefined
    await d.route('**/dms.data*', async (route) => {
      if (answered) return route.continue()
      const response = await route.fetch()
      answered = new Promise<void>((resolve) => {
        hold = resolve
      }).then(() => route.fulfill({ response }))
    })
    await d.goto('/dms')
    await waitForHydration(d)
    // The socket's `ready` makes the page catch up: that reload is the one held.
    await expect.poll(() => hold !== undefined, { timeout: 15_000 }).toBe(true)
    const room = await callAs(site.server, C, 'POST', '/dms/rooms', { username: D.username })
    await sendMessage(site.server, C, room.body.id, 'リロード中のメッセージ')
    hold?.()
    await answered
    await expect
      .poll(
        () => d.locator(`[data-room="${C.username}"] [data-unread]`).getAttribute('data-unread'),
        {
          timeout: 15_000,
        },
      )
      .toBe('1')
    expect(errors).toEqual([])
  })

  test('axe finds nothing on /dms and /dms/{id}, light and dark, desktop and mobile', async () => {
    const { A, B, roomPath } = await conversation()
    const page = await site.newPage(B.cookie)
    const failures: string[] = []
    for (const path of ['/dms', roomPath, `/${A.username}`]) {
      await page.goto(path)
      await waitForHydration(page)
      failures.push(...(await axeAtBothSizes(page)))
    }
    expect(failures).toEqual([])
  }, 120_000)

  test('B blocks A from A’s profile: A’s next message does not reach B, and A is not told', async () => {
    const { A: aUser, B: bUser, room, roomPath } = await conversation()
    const A = aUser.username
    await sendMessage(site.server, bUser, room, 'ブロック前のメッセージ')
    const a = await site.newPage(aUser.cookie)
    const b = await site.newPage(bUser.cookie)
    await b.goto(`/${A}`)
    await waitForHydration(b)
    const block = b.locator('[data-block-button]')
    await block.click()
    await b
      .getByRole('dialog', { name: 'このユーザーをブロックしますか？' })
      .getByRole('button', { name: 'ブロックする' })
      .click()
    await expect.poll(() => block.getAttribute('aria-pressed')).toBe('true')

    await b.goto('/dms')
    await waitForHydration(b)
    expect(await b.locator(`[data-room="${A}"]`).count()).toBe(0)

    await a.goto(roomPath)
    await waitForHydration(a)
    await send(a, 'ブロックされたあとのメッセージ')
    // A sees it sent, as always.
    await expect
      .poll(() => messageList(a).getByText('ブロックされたあとのメッセージ').count())
      .toBe(1)
    // B gets no count, no room, and the room's page is not found.
    await b.reload()
    await waitForHydration(b)
    expect(await b.locator('[data-testid="unread-messages-badge"]').count()).toBe(0)
    expect(await b.locator(`[data-room="${A}"]`).count()).toBe(0)
    expect((await b.goto(roomPath))?.status()).toBe(404)
    const hidden = await callAs(site.server, bUser, 'GET', `/dms/rooms/${room}/changes?after=0`)
    expect(hidden.status).toBe(404)

    // Unblocked, the room is back, without what was sent during the block.
    expect((await callAs(site.server, bUser, 'DELETE', `/users/${A}/block`)).status).toBeLessThan(
      300,
    )
    await b.goto(roomPath)
    await waitForHydration(b)
    await expect.poll(() => messageList(b).getByText('ブロック前のメッセージ').count()).toBe(1)
    expect(await messageList(b).getByText('ブロックされたあとのメッセージ').count()).toBe(0)
  }, 90_000)
})
