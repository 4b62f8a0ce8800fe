import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { callApi, fetchPage } from '#tests/support/http.ts'
import { openSocket, pageHeaders, subOf } from '#tests/support/realtime.ts'
import { CLIENT_ID, signedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * Reports and moderation through the real server (decision 039): the report rules over /api,
 * the admin routes refused to everyone else, a hidden message as each member reads it, and a
 * suspension that ends the user's tokens and closes their open socket.
 */
let server: TestServer
const cookies: Record<string, string> = {}
const ids: Record<string, string> = {}
const ADMIN = 'mod_boss'
const call = (who: string | undefined, method: string, path: string, body?: unknown) =>
  callApi(server.url, method, path, who ? cookies[who] : undefined, body)

beforeAll(async () => {
  server = await startTestServer({ ADMIN_USERS: ADMIN })
  for (const name of [ADMIN, 'mod_aya', 'mod_ben', 'mod_cho']) {
    const tokens = await signedInUser(server, name)
    cookies[name] = amplifyCookieHeader(CLIENT_ID, name, tokens)
    ids[name] = subOf(tokens.accessToken)
  }
}, 60_000)

afterAll(async () => {
  await server?.close()
})

describe('reports and moderation over /api', () => {
  let roomId: string
  let messageId: string

  it('files reports by the rules and refuses the admin routes to anyone else', async () => {
    roomId = (await call('mod_aya', 'POST', '/dms/rooms', { username: 'mod_ben' })).body.id
    messageId = (
      await call('mod_ben', 'POST', `/dms/rooms/${roomId}/messages`, { body: 'いやなこと' })
    ).body.id
    const report = { kind: 'message', id: messageId, reason: 'harassment' }
    expect((await call(undefined, 'POST', '/reports', report)).status).toBe(401)
    expect((await call('mod_cho', 'POST', '/reports', report)).status).toBe(404)
    expect((await call('mod_ben', 'POST', '/reports', report)).status).toBe(403)
    const bad = await call('mod_aya', 'POST', '/reports', { ...report, note: 'x'.repeat(1001) })
    expect(bad.status).toBe(400)
    expect(bad.body.error.fields.note).toEqual(['補足は 1,000 文字以内で入力してください'])
    const first = await call('mod_aya', 'POST', '/reports', report)
    expect(first).toMatchObject({ status: 200, body: { updated: false } })
    const second = await call('mod_aya', 'POST', '/reports', { ...report, note: '追記' })
    expect(second.body).toEqual({ id: first.body.id, updated: true })

    for (const [method, path, body] of [
      ['GET', '/admin/reports'],
      ['GET', `/admin/reports/message/${messageId}`],
      ['POST', `/admin/reports/message/${messageId}/actions`, { action: 'hide' }],
    ] as const) {
      expect((await call('mod_aya', method, path, body)).status, `${method} ${path}`).toBe(403)
      expect((await call(undefined, method, path, body)).status, `${method} ${path}`).toBe(401)
    }
    expect((await fetchPage(server.url, '/admin/reports', cookies.mod_aya)).status).toBe(403)
    expect(
      (await fetchPage(server.url, `/admin/reports/message/${messageId}`, cookies.mod_aya)).status,
    ).toBe(403)
    expect((await fetchPage(server.url, '/admin/reports')).status).toBe(302)

    const queue = await call(ADMIN, 'GET', '/admin/reports')
    expect(queue.body.items).toMatchObject([
      { kind: 'message', id: messageId, count: 1, reasons: ['harassment'] },
    ])
  })

  it('hides a message: the recipient reads it empty, the sender keeps it with the reason', async () => {
    const hidden = await call(ADMIN, 'POST', `/admin/reports/message/${messageId}/actions`, {
      action: 'hide',
      note: '暴言のため',
    })
    expect(hidden.status).toBe(204)
    const forAya = await call('mod_aya', 'GET', `/dms/rooms/${roomId}/messages`)
    expect(forAya.body.items).toMatchObject([
      { id: messageId, body: '', hidden: true, hiddenReason: null },
    ])
    const forBen = await call('mod_ben', 'GET', `/dms/rooms/${roomId}/messages`)
    expect(forBen.body.items).toMatchObject([
      { body: 'いやなこと', hidden: true, hiddenReason: '暴言のため' },
    ])
    const item = await call(ADMIN, 'GET', `/admin/reports/message/${messageId}`)
    expect(item.body).toMatchObject({
      reports: [{ reporter: 'mod_aya', status: 'resolved', note: '追記' }],
      actions: [{ actor: ADMIN, action: 'hide', note: '暴言のため' }],
    })
    // Suspending is for users only.
    const wrong = await call(ADMIN, 'POST', `/admin/reports/message/${messageId}/actions`, {
      action: 'suspend',
    })
    expect(wrong.status).toBe(400)
  })

  it('suspends a user: their tokens stop working and their open socket is closed', async () => {
    const socket = await openSocket(server.url, pageHeaders(server.url, cookies.mod_ben ?? ''))
    expect((await call('mod_ben', 'GET', '/dms/rooms')).status).toBe(200)
    const suspended = await call(ADMIN, 'POST', `/admin/reports/user/${ids.mod_ben}/actions`, {
      action: 'suspend',
    })
    expect(suspended.status).toBe(204)
    expect(await socket.closed).toEqual({ code: 4403, reason: 'disconnected' })
    expect((await call('mod_ben', 'GET', '/dms/rooms')).status).toBe(401)
    const page = await fetchPage(server.url, '/dms', cookies.mod_ben)
    expect(page.status).toBe(302)
    // An admin cannot suspend themselves.
    const self = await call(ADMIN, 'POST', `/admin/reports/user/${ids[ADMIN]}/actions`, {
      action: 'suspend',
    })
    expect(self.status).toBe(403)
  })
})
