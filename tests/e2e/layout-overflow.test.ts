import { beforeAll, describe, expect, test } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { callApi } from '#tests/support/http.ts'
import { CLIENT_ID, signedInUser } from '#tests/support/signed-in-user.ts'
import { SCREENS } from './axe.ts'
import { waitForHydration } from './browser.ts'
import { overflowPastLayout } from './layout.ts'
import { browserSuite } from './suite.ts'

/**
 * The document ends where the layout does: no page scrolls into empty space past its footer or
 * sideways past the screen, at desktop and phone sizes. Visually hidden text inside a scrolling
 * box (a room's messages, a wide table, the heatmap, a truncated heading) stays inside it.
 */
const site = browserSuite({ DM_MESSAGES_PER_USER_PER_MINUTE: '1000' })
const A = 'ayumi_layout'
const B = 'bungo_layout'
const cookies: Record<string, string> = {}
let roomPath = ''
const OTHER_PAGES = [
  '/dms',
  '/histories',
  '/settings',
  '/',
  '/courses',
  '/exercises',
  '/notifications',
]

beforeAll(async () => {
  for (const name of [A, B]) {
    cookies[name] = amplifyCookieHeader(CLIENT_ID, name, await signedInUser(site.server, name))
  }
  const call = async (who: string, method: string, path: string, body?: unknown) => {
    const answer = await callApi(site.server.url, method, path, cookies[who], body)
    expect(answer.status, `${method} ${path}`).toBeLessThan(300)
    return answer.body
  }
  // A display name far wider than a phone: the room's heading truncates it.
  await call(B, 'PUT', '/profile', { displayName: 'とても長い表示名'.repeat(6) })
  const room = await call(A, 'POST', '/dms/rooms', { username: B })
  roomPath = `/dms/${room.id}`
  for (let n = 1; n <= 60; n++) {
    await call(n % 2 ? A : B, 'POST', `/dms/rooms/${room.id}/messages`, {
      body: `メッセージ ${n}`,
    })
  }
}, 120_000)

describe.each(SCREENS)('the page ends at its footer at $name size', (screen) => {
  test('a direct-message room with many messages and the signed-in pages around it', async () => {
    const page = await site.newPage(cookies[A])
    await page.setViewportSize(screen)
    const found: Record<string, unknown> = {}
    for (const path of [roomPath, ...OTHER_PAGES]) {
      await page.goto(path)
      await waitForHydration(page)
      found[path] = await overflowPastLayout(page)
    }
    const none = { height: 0, width: 0, escaped: [] }
    expect(found).toEqual(
      Object.fromEntries([roomPath, ...OTHER_PAGES].map((path) => [path, none])),
    )
  })
})
