import { RevokeTokenCommand } from '@aws-sdk/client-cognito-identity-provider'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { signedInPageUser } from '#tests/integration/storage/support.ts'
import { callApi } from '#tests/support/http.ts'
import {
  closedHandshake,
  openSocket,
  pageHeaders,
  realtimeUrl,
  refusedHandshake,
  subOf,
} from '#tests/support/realtime.ts'
import { CLIENT_ID, userPool } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * /realtime on one instance (docs/decisions/036): who may open a socket, what reaches it, and
 * what a misbehaving client gets (a close code, never a stalled or crashed server).
 */

const HEARTBEAT_MS = 300
let server: TestServer
type User = Awaited<ReturnType<typeof signedInPageUser>> & { id: string }
let hana: User
let ken: User
/** Signs out in a test: signed in first, while the server's clock is the test's start. */
let leaving: User

async function user(prefix: string): Promise<User> {
  const signedIn = await signedInPageUser(server, prefix)
  return { ...signedIn, id: subOf(signedIn.tokens.AccessToken ?? '') }
}

beforeAll(async () => {
  server = await startTestServer({
    REALTIME_SOCKETS_PER_USER: '3',
    REALTIME_HEARTBEAT_MS: String(HEARTBEAT_MS),
  })
  hana = await user('rt_hana')
  ken = await user('rt_ken')
  leaving = await user('rt_leaving')
})
afterAll(async () => {
  await server?.close()
})

const page = (who: User) => pageHeaders(server.url, who.cookie)

describe('opening a socket', () => {
  it('takes the session cookie from the site own pages, and answers pings', async () => {
    const tab = await openSocket(server.url, page(hana))
    expect(tab.frames[0]).toEqual({ type: 'ready', data: { heartbeatMs: HEARTBEAT_MS } })
    tab.socket.send(JSON.stringify({ type: 'ping' }))
    await tab.next('pong')
    await tab.close()
  })

  it('takes a bearer access token from a client outside the browser', async () => {
    const client = await openSocket(server.url, {
      authorization: `Bearer ${hana.tokens.AccessToken}`,
    })
    await client.close()
  })

  it('refuses guests, other sites with the visitor cookie, and a bad token', async () => {
    // A page's script learns why from the close code (an HTTP refusal would only be a console
    // error it cannot read): a guest page, and a page whose cookie is no longer a session.
    const guestPage = await closedHandshake(server.url, { origin: server.url })
    expect(guestPage).toEqual({ code: 4401, reason: 'SIGN_IN_REQUIRED', frames: 0 })
    const stalePage = await closedHandshake(server.url, pageHeaders(server.url, 'techlab=stale'))
    expect(stalePage.code).toBe(4401)
    // Other clients get the API's error over HTTP.
    const guest = await refusedHandshake(server.url, {})
    expect(guest.status).toBe(401)
    expect(JSON.parse(guest.body).error.code).toBe('SIGN_IN_REQUIRED')
    const crossSite = await refusedHandshake(server.url, {
      cookie: hana.cookie,
      origin: 'https://evil.example',
    })
    expect(crossSite.status).toBe(403)
    expect(JSON.parse(crossSite.body).error.code).toBe('CROSS_SITE_REQUEST')
    const fetchSite = await refusedHandshake(server.url, {
      cookie: hana.cookie,
      'sec-fetch-site': 'cross-site',
    })
    expect(fetchSite.status).toBe(403)
    const forged = await refusedHandshake(server.url, { authorization: 'Bearer not.a.token' })
    expect(forged.status).toBe(401)
  })

  it('closes the sockets of a session that signs out, and its cookie opens no new one', async () => {
    const tab = await openSocket(server.url, page(leaving))
    await userPool(server).send(
      new RevokeTokenCommand({ ClientId: CLIENT_ID, Token: leaving.tokens.RefreshToken ?? '' }),
    )
    expect((await tab.closed).code).toBe(4401)
    expect((await closedHandshake(server.url, page(leaving))).code).toBe(4401)
  })
})

describe('events', () => {
  it("reach every tab of the users they are for, and nobody else's", async () => {
    const first = await openSocket(server.url, page(hana))
    const second = await openSocket(server.url, page(hana))
    const other = await openSocket(server.url, page(ken))
    server.app.realtime.publish([hana.id], { type: 'test.event', data: { n: 1 } })
    expect(await first.next('test.event')).toEqual({ type: 'test.event', data: { n: 1 } })
    expect(await second.next('test.event')).toEqual({ type: 'test.event', data: { n: 1 } })
    server.app.realtime.publish([ken.id], { type: 'test.event', data: { n: 2 } })
    expect((await other.next('test.event')).data).toEqual({ n: 2 })
    expect(first.frames.filter((frame) => frame.type === 'test.event')).toHaveLength(1)
    await Promise.all([first.close(), second.close(), other.close()])
  })

  it('update the bell when a notification is written, and when it is read', async () => {
    const tab = await openSocket(server.url, page(hana))
    const followed = callApi(server.url, 'POST', `/users/${hana.username}/follow`, ken.cookie)
    expect((await tab.next('notifications.count')).data).toEqual({ unread: 1 })
    expect((await followed).status).toBe(200)
    const read = await callApi(server.url, 'POST', '/notifications/read', hana.cookie)
    expect(read.status).toBe(200)
    expect((await tab.next('notifications.count')).data).toEqual({ unread: 0 })
    await tab.close()
  })
})

describe('limits and bad input', () => {
  it('closes malformed, binary, oversized and too many frames with their codes', async () => {
    const cases: [string, (socket: WebSocket) => void, number][] = [
      ['not JSON', (socket) => socket.send('{nope'), 4400],
      ['an unknown message', (socket) => socket.send('{"type":"subscribe"}'), 4400],
      ['binary', (socket) => socket.send(Buffer.from([1, 2, 3])), 1003],
      ['oversized', (socket) => socket.send('x'.repeat(64 * 1024)), 1009],
      [
        'a flood of pings',
        (socket) => {
          for (let i = 0; i < 30; i++) socket.send('{"type":"ping"}')
        },
        4429,
      ],
    ]
    for (const [what, misbehave, code] of cases) {
      const tab = await openSocket(server.url, page(ken))
      misbehave(tab.socket)
      expect((await tab.closed).code, what).toBe(code)
    }
    // None of it hurt the server: a new socket still works.
    const after = await openSocket(server.url, page(ken))
    await after.close()
  })

  it('allows a user only so many sockets on one instance', async () => {
    const tabs = await Promise.all([1, 2, 3].map(() => openSocket(server.url, page(hana))))
    const fourth = new WebSocket(realtimeUrl(server.url), { headers: page(hana) })
    const closed = await new Promise<number>((resolve) => fourth.on('close', resolve))
    expect(closed).toBe(4409)
    await tabs[0]?.close()
    const again = await openSocket(server.url, page(hana))
    await Promise.all([...tabs.slice(1), again].map((tab) => tab.close()))
  })

  it('closes a socket whose peer stops answering pings', async () => {
    const silent = await openSocket(server.url, page(ken), { autoPong: false })
    const started = Date.now()
    expect((await silent.closed).code).toBe(1006)
    // Two heartbeats; far less than the 30 s default, with room for a busy machine.
    expect(Date.now() - started).toBeLessThan(HEARTBEAT_MS * 10)
  })

  it('closes a socket once its session expires', async () => {
    const tab = await openSocket(server.url, page(ken))
    server.clock.advance(2 * 3_600_000)
    try {
      expect((await tab.closed).code).toBe(4401)
      const expired = await closedHandshake(server.url, page(ken))
      expect(expired.code).toBe(4401)
    } finally {
      await tab.close()
    }
  })
})

it('closes every socket with 1001 when the server stops, without holding the stop up', async () => {
  const other = await startTestServer()
  const signedIn = await signedInPageUser(other, 'rt_stop')
  const tab = await openSocket(other.url, pageHeaders(other.url, signedIn.cookie))
  const started = Date.now()
  await other.drain()
  expect((await tab.closed).code).toBe(1001)
  await other.close()
  // Held up by the socket, the stop would wait for SHUTDOWN_GRACE_MS (10 s) and more.
  expect(Date.now() - started).toBeLessThan(5_000)
})
