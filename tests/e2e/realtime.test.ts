import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { callApi } from '#tests/support/http.ts'
import { signedInCookie } from '#tests/support/signed-in-user.ts'
import { collectPageErrors, waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * The header's bell in Chromium, live: another user's follow raises it on an open page without
 * a reload, through the /realtime socket (allowed by the page's CSP: no console errors), and
 * still, by polling, on a page whose browser has no WebSocket.
 */
// Heartbeats every half second: a session's end is noticed on an open socket at once.
const site = browserSuite({ REALTIME_HEARTBEAT_MS: '500' })

const bellNamed = (page: Page, name: string) =>
  page.getByRole('link', { name, exact: true }).count()

async function follow(whom: string, cookie: string) {
  const answer = await callApi(site.server.url, 'POST', `/users/${whom}/follow`, cookie)
  expect(answer.status).toBe(200)
}

describe('the live bell', () => {
  test('rises on an open page when someone follows, through the socket', async () => {
    const hostCookie = await signedInCookie(site.server, 'mio_live')
    const fanCookie = await signedInCookie(site.server, 'taro_fan')
    const page = await site.newPage(hostCookie)
    const errors = collectPageErrors(page)
    const sockets: string[] = []
    const frames: string[] = []
    page.on('websocket', (socket) => {
      sockets.push(new URL(socket.url()).pathname)
      socket.on('framereceived', ({ payload }) => frames.push(String(payload)))
    })
    await page.goto('/')
    await waitForHydration(page)
    expect(await bellNamed(page, '通知')).toBe(1)
    // The socket opens once the page is idle.
    await expect
      .poll(() => frames.some((frame) => frame.includes('"ready"')), { timeout: 10_000 })
      .toBe(true)
    expect(sockets).toEqual(['/realtime'])
    await follow('mio_live', fanCookie)
    await expect.poll(() => bellNamed(page, '通知（未読 1 件）'), { timeout: 3_000 }).toBe(1)
    expect(await page.getByTestId('unread-badge').textContent()).toBe('1')
    expect(frames).toContain('{"type":"notifications.count","data":{"unread":1}}')
    expect(errors).toEqual([])
  })

  test('rises without WebSocket too, by polling the count', async () => {
    const hostCookie = await signedInCookie(site.server, 'sae_poll')
    const fanCookie = await signedInCookie(site.server, 'jun_fan')
    const page = await site.newPage(hostCookie)
    const errors = collectPageErrors(page)
    await page.addInitScript(() => {
      // A browser (or a proxy) without WebSocket.
      Reflect.deleteProperty(window, 'WebSocket')
    })
    await page.goto('/')
    await waitForHydration(page)
    await follow('sae_poll', fanCookie)
    await expect.poll(() => bellNamed(page, '通知（未読 1 件）'), { timeout: 20_000 }).toBe(1)
    expect(errors).toEqual([])
  })

  test('a session that ends under an open page: the page reconnects, refused without an error', async () => {
    const page = await site.signedInPage('kai_expiring')
    const errors = collectPageErrors(page)
    let ready = 0
    let closed = 0
    page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) => {
        if (String(payload).includes('"ready"')) ready += 1
      })
      socket.on('close', () => {
        closed += 1
      })
    })
    await page.goto('/')
    await waitForHydration(page)
    await expect.poll(() => ready, { timeout: 10_000 }).toBe(1)
    // The access token in the page's cookies expires (the server's clock moves on): the server
    // closes the socket, and the page's next handshakes carry the expired token.
    site.server.clock.advance(2 * 3_600_000)
    await expect.poll(() => closed, { timeout: 10_000 }).toBeGreaterThanOrEqual(2)
    expect(ready).toBe(1)
    // Refused over HTTP, each attempt would be a console error the page cannot prevent.
    expect(errors).toEqual([])
  })

  test('a guest page opens no socket', async () => {
    const page = await site.newPage()
    const sockets: string[] = []
    page.on('websocket', (socket) => sockets.push(socket.url()))
    await page.goto('/')
    await waitForHydration(page)
    await page.waitForTimeout(2_000)
    expect(sockets).toEqual([])
  })
})
