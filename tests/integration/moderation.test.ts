import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  callAs,
  directMessageRoom,
  type Member,
  reportedMessage,
  sendMessage,
} from '#tests/support/direct-messages.ts'
import { fetchPage } from '#tests/support/http.ts'
import { openSocket, pageHeaders } from '#tests/support/realtime.ts'
import { newSignedInUser, signedInMember } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * Reports and moderation through the real server (decision 039): the report rules over /api,
 * the admin routes refused to everyone else, a hidden message as each member reads it, and a
 * suspension that ends the user's tokens and closes their open socket. Each test reports and
 * moderates users and messages of its own; only the admin, named by the server's settings, is
 * shared.
 */
let server: TestServer
let admin: Member
const ADMIN = 'mod_boss'
const call = (who: Member | undefined, method: string, path: string, body?: unknown) =>
  callAs(server, who, method, path, body)

beforeAll(async () => {
  server = await startTestServer({ ADMIN_USERS: ADMIN })
  admin = await signedInMember(server, ADMIN)
}, 60_000)

afterAll(async () => {
  await server?.close()
})

describe('reports and moderation over /api', () => {
  it('files reports by the rules and refuses the admin routes to anyone else', async () => {
    const { room, opener: aya, other: ben } = await directMessageRoom(server, ['aya', 'ben'])
    const cho = await newSignedInUser(server, 'cho')
    const messageId = (await sendMessage(server, ben, room, 'いやなこと')).id
    const report = { kind: 'message', id: messageId, reason: 'harassment' }
    expect((await call(undefined, 'POST', '/reports', report)).status).toBe(401)
    expect((await call(cho, 'POST', '/reports', report)).status).toBe(404)
    expect((await call(ben, 'POST', '/reports', report)).status).toBe(403)
    const bad = await call(aya, 'POST', '/reports', { ...report, note: 'x'.repeat(1001) })
    expect(bad.status).toBe(400)
    expect(bad.body.error.fields.note).toEqual(['補足は 1,000 文字以内で入力してください'])
    const first = await call(aya, 'POST', '/reports', report)
    expect(first).toMatchObject({ status: 200, body: { updated: false } })
    const second = await call(aya, 'POST', '/reports', { ...report, note: '追記' })
    expect(second.body).toEqual({ id: first.body.id, updated: true })

    for (const [method, path, body] of [
      ['GET', '/admin/reports'],
      ['GET', `/admin/reports/message/${messageId}`],
      ['POST', `/admin/reports/message/${messageId}/actions`, { action: 'hide' }],
    ] as const) {
      expect((await call(aya, method, path, body)).status, `${method} ${path}`).toBe(403)
      expect((await call(undefined, method, path, body)).status, `${method} ${path}`).toBe(401)
    }
    expect((await fetchPage(server.url, '/admin/reports', aya.cookie)).status).toBe(403)
    expect(
      (await fetchPage(server.url, `/admin/reports/message/${messageId}`, aya.cookie)).status,
    ).toBe(403)
    expect((await fetchPage(server.url, '/admin/reports')).status).toBe(302)

    const queue = await call(admin, 'GET', '/admin/reports')
    expect(queue.body.items).toContainEqual(
      expect.objectContaining({
        kind: 'message',
        id: messageId,
        count: 1,
        reasons: ['harassment'],
      }),
    )
  })

  it('hides a message: the recipient reads it empty, the sender keeps it with the reason', async () => {
    const { room, reporter: aya, sender: ben, messageId } = await reportedMessage(server, '追記')
    const hidden = await call(admin, 'POST', `/admin/reports/message/${messageId}/actions`, {
      action: 'hide',
      note: '暴言のため',
    })
    expect(hidden.status).toBe(204)
    const forAya = await call(aya, 'GET', `/dms/rooms/${room}/messages`)
    expect(forAya.body.items).toMatchObject([
      { id: messageId, body: '', hidden: true, hiddenReason: null },
    ])
    const forBen = await call(ben, 'GET', `/dms/rooms/${room}/messages`)
    expect(forBen.body.items).toMatchObject([
      { body: 'いやなこと', hidden: true, hiddenReason: '暴言のため' },
    ])
    const item = await call(admin, 'GET', `/admin/reports/message/${messageId}`)
    expect(item.body).toMatchObject({
      reports: [{ reporter: aya.username, status: 'resolved', note: '追記' }],
      actions: [{ actor: admin.username, action: 'hide', note: '暴言のため' }],
    })
    // Suspending is for users only.
    const wrong = await call(admin, 'POST', `/admin/reports/message/${messageId}/actions`, {
      action: 'suspend',
    })
    expect(wrong.status).toBe(400)
  })

  it('suspends a user: their tokens stop working and their open socket is closed', async () => {
    const ben = await newSignedInUser(server, 'ben')
    const socket = await openSocket(server.url, pageHeaders(server.url, ben.cookie))
    expect((await call(ben, 'GET', '/dms/rooms')).status).toBe(200)
    const suspended = await call(admin, 'POST', `/admin/reports/user/${ben.id}/actions`, {
      action: 'suspend',
    })
    expect(suspended.status).toBe(204)
    expect(await socket.closed).toEqual({ code: 4403, reason: 'disconnected' })
    expect((await call(ben, 'GET', '/dms/rooms')).status).toBe(401)
    const page = await fetchPage(server.url, '/dms', ben.cookie)
    expect(page.status).toBe(302)
    // An admin cannot suspend themselves.
    const self = await call(admin, 'POST', `/admin/reports/user/${admin.id}/actions`, {
      action: 'suspend',
    })
    expect(self.status).toBe(403)
  })
})
