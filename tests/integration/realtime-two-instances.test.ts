import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import WebSocket from 'ws'
import { openConnection } from '#app/lib/realtime/connection.ts'
import { type Server, startServer } from '#bench/servers.ts'
import { createPostgresDatabase } from '#db/test-support.ts'
import { directMessageRoom, type Member } from '#tests/support/direct-messages.ts'
import { callApi } from '#tests/support/http.ts'
import {
  closedHandshake,
  openSocket,
  pageHeaders,
  realtimeUrl,
  refusedHandshake,
} from '#tests/support/realtime.ts'
import { redisReachable, TEST_REDIS_URL } from '#tests/support/redis.ts'
import { newSignedInUser } from '#tests/support/signed-in-user.ts'
import { startTcpProxy, type TcpProxy } from '#tests/support/tcp-proxy.ts'

/**
 * Two server processes on one database and one Redis, behind no load balancer
 * but reached one each by two users. Redis is the machine's, shared with other work, so it is
 * reached through a proxy this test controls: stopping the proxy is Redis going away. Each test
 * signs up its own users and opens its own room.
 */

const reachable = await redisReachable(TEST_REDIS_URL, 'realtime-two-instances.test.ts')

let proxy: TcpProxy
let one: Server
let two: Server
let dataDir: string
let postgres: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined

beforeAll(async () => {
  if (!reachable) return
  const redis = new URL(TEST_REDIS_URL)
  proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) })
  dataDir = await mkdtemp(path.join(tmpdir(), 'techlab-two-instances-'))
  postgres = process.env.TEST_DATABASE_URL
    ? await createPostgresDatabase(process.env.TEST_DATABASE_URL)
    : undefined
  // One data directory: the same SQLite file (or PostgreSQL database) and the same signing keys.
  const environment = {
    SEED_DEMO_CONTENT: 'never',
    REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
    REALTIME_HEARTBEAT_MS: '1000',
    SIGN_UPS_PER_IP_PER_HOUR: '100000',
    MAILS_PER_ADDRESS_PER_HOUR: '100000',
    MAILS_PER_IP_PER_HOUR: '100000',
    ...(postgres && { DATABASE_URL: postgres.url }),
  }
  const start = (name: string) =>
    startServer(undefined, name, { type: 'start', server: 'app', dataDir, environment })
  // One after the other: the first migrates the database.
  one = await start('instance 1')
  two = await start('instance 2')
}, 120_000)

afterAll(async () => {
  await Promise.all([one?.close(), two?.close()])
  await proxy?.stop()
  await postgres?.drop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

const follow = (on: Server, who: Member, whom: Member, method = 'POST') =>
  callApi(on.url, method, `/users/${whom.username}/follow`, who.cookie)

/** What `frame` resolves to, failing unless it came within 1 s from now (or had already come). */
async function withinASecond<T>(frame: Promise<T>): Promise<T> {
  const started = Date.now()
  const result = await frame
  expect(Date.now() - started).toBeLessThan(1_000)
  return result
}

it.skipIf(!reachable)(
  'crosses instances within 1 s: a message, a read marker and the bell',
  async () => {
    const alice = await newSignedInUser(one, 'rt2_alice')
    const bob = await newSignedInUser(one, 'rt2_bob')
    const bobTab = await openSocket(two.url, pageHeaders(two.url, bob.cookie))
    const aliceTab = await openSocket(one.url, pageHeaders(one.url, alice.cookie))
    const room = (
      await callApi(one.url, 'POST', '/dms/rooms', alice.cookie, { username: bob.username })
    ).body.id
    const created = bobTab.next('message.created', 5_000)
    const sent = await callApi(one.url, 'POST', `/dms/rooms/${room}/messages`, alice.cookie, {
      body: 'インスタンスをまたいで届きますか？',
    })
    expect(sent.status).toBe(201)
    expect((await withinASecond(created)).data).toEqual({ roomId: room, message: sent.body })
    const read = aliceTab.next('room.read', 5_000)
    const marked = await callApi(two.url, 'POST', `/dms/rooms/${room}/read`, bob.cookie, {
      seq: sent.body.seq,
    })
    expect(marked.status).toBe(200)
    expect((await withinASecond(read)).data).toEqual({
      roomId: room,
      username: bob.username,
      seq: sent.body.seq,
    })

    // Each event within 1 s of its write's answer (the bell's is published once it is sent).
    const bell = bobTab.next('notifications.count', 5_000)
    expect((await follow(one, alice, bob)).status).toBe(200)
    expect((await withinASecond(bell)).data).toEqual({ unread: 1 })
    const otherBell = aliceTab.next('notifications.count', 5_000)
    expect((await follow(two, bob, alice)).status).toBe(200)
    expect((await withinASecond(otherBell)).data).toEqual({ unread: 1 })
    await Promise.all([bobTab.close(), aliceTab.close()])
  },
)

it.skipIf(!reachable)(
  'without Redis, clients catch up by polling and lose nothing; with it back, they are live again',
  async () => {
    const {
      room,
      opener: alice,
      other: bob,
    } = await directMessageRoom(one, ['rt2_alice', 'rt2_bob'])
    const carol = await newSignedInUser(one, 'rt2_carol')
    // Bob's bell shows one notification before his page connects.
    expect((await follow(one, alice, bob)).status).toBe(200)
    const counts: number[] = []
    const unreadMessages: number[] = []
    const events: unknown[] = []
    const liveChanges: boolean[] = []
    const waitFor = async (what: string, done: () => boolean, timeoutMs: number) => {
      const until = Date.now() + timeoutMs
      while (!done()) {
        if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs} ms`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
    // The browser's own client, reaching instance 2 with Bob's session.
    const client = openConnection({
      url: realtimeUrl(two.url),
      createSocket: (url) =>
        new WebSocket(url, {
          headers: pageHeaders(two.url, bob.cookie),
        }) as unknown as globalThis.WebSocket,
      random: () => 0,
      pollMs: 300,
      onEvent: (_type, data) => events.push(data),
      onLiveChange: (live) => liveChanges.push(live),
      onCatchUp() {
        void callApi(two.url, 'GET', '/notifications/unread-count', bob.cookie).then((answer) =>
          counts.push(answer.body.unread),
        )
        void callApi(two.url, 'GET', '/dms/unread-count', bob.cookie).then((answer) =>
          unreadMessages.push(answer.body.unread),
        )
      },
    })
    try {
      await waitFor('connected', () => client.live, 5_000)
      await waitFor('caught up on connecting', () => counts.includes(1), 2_000)

      await proxy.stop()
      await waitFor('socket closed without Redis', () => !client.live, 3_000)
      const refused = await closedHandshake(two.url, pageHeaders(two.url, bob.cookie))
      expect(refused).toMatchObject({ code: 1013, reason: 'REALTIME_UNAVAILABLE' })
      const client503 = await refusedHandshake(two.url, {
        authorization: `Bearer ${bob.accessToken}`,
      })
      expect(client503.status).toBe(503)
      expect(JSON.parse(client503.body).error.code).toBe('REALTIME_UNAVAILABLE')
      // Writes go on and are stored; Bob's page learns of them by polling.
      expect((await follow(one, carol, bob)).status).toBe(200)
      const sent = await callApi(one.url, 'POST', `/dms/rooms/${room}/messages`, alice.cookie, {
        body: 'Redis が止まっている間のメッセージ',
      })
      expect(sent.status).toBe(201)
      await waitFor('caught up by polling', () => counts.includes(2), 3_000)
      await waitFor('the message counted by polling', () => unreadMessages.includes(1), 3_000)

      await proxy.start()
      await waitFor('live again', () => client.live, 15_000)
      expect(liveChanges).toEqual([true, false, true])
      const before = events.length
      expect((await follow(one, carol, bob, 'DELETE')).status).toBe(200)
      await waitFor('event after recovery', () => events.length > before, 1_000)
      expect(events.at(-1)).toEqual({ unread: 1 })
      // Nothing was lost: the message sent while Redis was down is in the room.
      const changes = await callApi(
        two.url,
        'GET',
        `/dms/rooms/${room}/changes?after=0`,
        bob.cookie,
      )
      expect(changes.body.messages.map((message: { body: string }) => message.body)).toContain(
        'Redis が止まっている間のメッセージ',
      )
    } finally {
      client.close()
    }
  },
  40_000,
)
