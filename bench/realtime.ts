/**
 * `npm run bench` (realtime, issue 17 item 7): the /realtime endpoint next to a bare `ws` relay
 * (ws-relay.ts) in the same run, printed as ratios; not a test.
 *
 * - idle: BENCH_REALTIME_IDLE (default 2,000) signed-in sockets held open on one instance,
 *   memory per socket (RSS and heap after a full GC) against as many on the bare relay;
 * - publish → B: an event the server publishes (asked over IPC) to B's socket, at
 *   BENCH_REALTIME_RATE (default 200) per second, against the bare relay sending the same frame:
 *   the realtime layer alone;
 * - A writes → B: a direct message sent through /api (stored in its transaction) to the other
 *   member's socket event (`message.created`), against a bare frame from A's socket to B's
 *   through the relay: the product path;
 *   each with p50/p99 from the scheduled send (open loop), then the most deliveries per second
 *   with 8 senders each waiting for its delivery (closed loop);
 * - the same two across two instances through Redis (the machine's, BENCH_REDIS_URL), against
 *   two bare relays joined through Redis.
 *
 * BENCH_DURATION_S (default 5) is each row's length. Every server runs in its own process.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import WebSocket from 'ws'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { pageHeaders, realtimeUrl, subOf } from '#tests/support/realtime.ts'
import { redisReachable } from '#tests/support/redis.ts'
import { CLIENT_ID, signedInUser } from '#tests/support/signed-in-user.ts'
import { appEnvironment } from './environment.ts'
import { format, positiveNumber, printTable, settings } from './measure.ts'
import { BenchError, runBench, type Server, startServer } from './servers.ts'

const IDLE = Math.round(positiveNumber('BENCH_REALTIME_IDLE', 2_000))
const RATE = positiveNumber('BENCH_REALTIME_RATE', 200)
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'
const LANES = 8
const LATENCY_GOAL = 2
const THROUGHPUT_GOAL = 0.5

type User = { username: string; cookie: string; id: string }

/** A socket whose frames of one kind are counted and timed as they arrive, in order. */
type Receiver = { arrivals: number[]; next(index: number): Promise<void>; socket: WebSocket }

/** One sender → receiver pair: `send()` starts a delivery; the receiver sees it arrive. */
type Lane = { send(): Promise<void>; receiver: Receiver }

function receiver(socket: WebSocket, counts: (frame: string) => boolean): Receiver {
  const arrivals: number[] = []
  const waiting = new Map<number, () => void>()
  socket.on('message', (data) => {
    if (!counts(String(data))) return
    arrivals.push(performance.now())
    waiting.get(arrivals.length - 1)?.()
  })
  return {
    arrivals,
    socket,
    next: (index) =>
      index < arrivals.length
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new BenchError('a delivery never came')), 10_000)
            waiting.set(index, () => {
              clearTimeout(timer)
              waiting.delete(index)
              resolve()
            })
          }),
  }
}

function open(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers, perMessageDeflate: false })
    socket.once('open', () => resolve(socket))
    socket.once('error', reject)
  })
}

/** An app socket, once the server said it is ready. */
async function appSocket(server: Server, user: User): Promise<WebSocket> {
  const socket = new WebSocket(realtimeUrl(server.url), {
    headers: pageHeaders(server.url, user.cookie),
    perMessageDeflate: false,
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('message', () => resolve())
    socket.once('error', reject)
    socket.once('close', (code) => reject(new BenchError(`socket closed (${code})`)))
  })
  return socket
}

const sleepUntil = (at: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())))

/** Open loop: deliveries scheduled at `rate` per second over the lanes; latency from schedule. */
async function latency(lanes: Lane[], rate: number, durationS: number) {
  const total = Math.round(rate * durationS)
  const start = performance.now() + 50
  const scheduled: number[][] = lanes.map(() => [])
  const sent = lanes.map(() => 0)
  await Promise.all(
    lanes.map(async (lane, index) => {
      for (let op = index; op < total; op += lanes.length) {
        const at = start + (op * 1000) / rate
        await sleepUntil(at)
        scheduled[index]?.push(at)
        await lane.send()
        sent[index] = (sent[index] ?? 0) + 1
      }
    }),
  )
  await Promise.all(lanes.map((lane, index) => lane.receiver.next((sent[index] ?? 1) - 1)))
  const times = lanes
    .flatMap((lane, index) =>
      (scheduled[index] ?? []).map((at, op) => (lane.receiver.arrivals[op] ?? Number.NaN) - at),
    )
    .sort((a, b) => a - b)
  const at = (share: number) => times[Math.min(times.length - 1, Math.floor(share * times.length))]
  return { p50: at(0.5) ?? Number.NaN, p99: at(0.99) ?? Number.NaN, count: times.length }
}

/** Closed loop: each lane sends, waits for its delivery, and sends again, for `durationS`. */
async function throughput(lanes: Lane[], durationS: number): Promise<number> {
  const until = performance.now() + durationS * 1000
  let delivered = 0
  await Promise.all(
    lanes.map(async (lane) => {
      while (performance.now() < until) {
        const index = lane.receiver.arrivals.length
        await lane.send()
        await lane.receiver.next(index)
        delivered += 1
      }
    }),
  )
  return delivered / durationS
}

/** Lanes through the app: fan k writes to host k in their room on `writeOn`; host k listens on `listenOn`. */
async function appLanes(writeOn: Server, listenOn: Server, fans: User[], hosts: User[]) {
  const lanes: Lane[] = []
  const post = async (fan: User, pathname: string, body: unknown) => {
    const response = await fetch(`${writeOn.url}/api${pathname}`, {
      method: 'POST',
      headers: { cookie: fan.cookie, origin: writeOn.url, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const answer = await response.json()
    if (!response.ok) throw new BenchError(`POST ${pathname} answered ${response.status}`)
    return answer as { id: string }
  }
  for (const [index, fan] of fans.entries()) {
    const host = hosts[index] as User
    const socket = await appSocket(listenOn, host)
    const room = await post(fan, '/dms/rooms', { username: host.username })
    lanes.push({
      receiver: receiver(socket, (frame) => frame.startsWith('{"type":"message.created"')),
      send: async () => {
        await post(fan, `/dms/rooms/${room.id}/messages`, { body: 'ベンチマークのメッセージ' })
      },
    })
  }
  return lanes
}

/**
 * Lanes of server-side publishes: the bench asks `publishOn` (over IPC, as for the bare relay) to
 * publish an event for receiver k, who may listen on another instance. The realtime layer alone.
 */
async function publishLanes(
  publishOn: Server,
  receivers: { id: string; connect(): Promise<WebSocket> }[],
) {
  const lanes: Lane[] = []
  for (const { id, connect } of receivers) {
    const socket = await connect()
    const event = { type: 'bench.event', data: { to: id } }
    lanes.push({
      receiver: receiver(socket, (frame) => frame.startsWith('{"type":"bench.event"')),
      send: async () => publishOn.publish([id], event),
    })
  }
  await new Promise((resolve) => setTimeout(resolve, 200))
  return lanes
}

/** Lanes through bare relays: sender k on `sendTo`, receiver k on `listenOn`. */
async function relayLanes(sendTo: Server, listenOn: Server, count: number, tag: string) {
  const lanes: Lane[] = []
  for (let index = 0; index < count; index++) {
    const to = `${tag}-b${index}`
    const sender = await open(`${sendTo.url}/?id=${tag}-a${index}`)
    const socket = await open(`${listenOn.url}/?id=${to}`)
    const frame = JSON.stringify({ to, type: 'notifications.count', data: { unread: 1 } })
    lanes.push({
      receiver: receiver(socket, () => true),
      send: async () => sender.send(frame),
    })
  }
  // Joined through Redis: give the subscriptions a moment.
  await new Promise((resolve) => setTimeout(resolve, 200))
  return lanes
}

function closeLanes(lanes: Lane[]) {
  for (const lane of lanes) lane.receiver.socket.terminate()
}

async function idleMemory(server: Server, connect: (index: number) => Promise<WebSocket>) {
  const before = await server.memory()
  const sockets: WebSocket[] = []
  for (let index = 0; index < IDLE; index += 100) {
    const batch = Array.from({ length: Math.min(100, IDLE - index) }, (_, k) => connect(index + k))
    sockets.push(...(await Promise.all(batch)))
  }
  const after = await server.memory()
  for (const socket of sockets) socket.terminate()
  return {
    rss: (after.rss - before.rss) / IDLE,
    heap: (after.heapUsed - before.heapUsed) / IDLE,
  }
}

const ms = (value: number) => value.toFixed(2)
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`

async function main(): Promise<number> {
  const servers: Server[] = []
  const dataDir = await mkdtemp(path.join(tmpdir(), 'techlab-bench-realtime-'))
  const start = async (name: string, environment: Record<string, string>) => {
    const server = await startServer(settings.cpuProfDir, name, {
      type: 'start',
      server: 'app',
      dataDir,
      environment: {
        ...appEnvironment(dataDir),
        SEED_DEMO_CONTENT: 'never',
        REALTIME_SOCKETS_PER_USER: '1000',
        DM_MESSAGES_PER_USER_PER_MINUTE: '1000000',
        SIGN_UPS_PER_IP_PER_HOUR: '100000',
        MAILS_PER_ADDRESS_PER_HOUR: '100000',
        MAILS_PER_IP_PER_HOUR: '100000',
        ...environment,
      },
    })
    servers.push(server)
    return server
  }
  const relay = async (name: string, redisUrl?: string) => {
    const server = await startServer(undefined, name, {
      type: 'start',
      server: 'ws-relay',
      redisUrl,
      channel: `bench:ws-relay:${process.pid}`,
    })
    servers.push(server)
    return server
  }
  try {
    const app = await start('app', {})
    const bare = await relay('bare ws relay')
    const user = async (username: string): Promise<User> => {
      const tokens = await signedInUser(app, username)
      const cookie = amplifyCookieHeader(CLIENT_ID, username, tokens)
      return { username, cookie, id: subOf(tokens.accessToken) }
    }
    const idlers = [await user('idle_a'), await user('idle_b'), await user('idle_c')]
    const fans = await Promise.all(Array.from({ length: LANES }, (_, k) => user(`fan_${k}`)))
    const hosts = await Promise.all(Array.from({ length: LANES }, (_, k) => user(`host_${k}`)))

    console.log(
      `\nrealtime: ${IDLE} idle sockets; ${RATE} deliveries/s over ${LANES} pairs for ` +
        `${settings.durationS} s per row; Node ${process.version}\n`,
    )
    const appIdle = await idleMemory(app, (index) =>
      appSocket(app, idlers[index % idlers.length] as User),
    )
    const bareIdle = await idleMemory(bare, (index) => open(`${bare.url}/?id=idle-${index}`))
    console.log(
      `  idle: app ${kib(appIdle.rss)} RSS, ${kib(appIdle.heap)} heap per socket; ` +
        `bare ${kib(bareIdle.rss)} RSS, ${kib(bareIdle.heap)} heap`,
    )

    const rows: string[][] = []
    const compare = async (
      name: string,
      appSide: () => Promise<Lane[]>,
      bareSide: () => Promise<Lane[]>,
      rate: number,
    ) => {
      const appLanesNow = await appSide()
      const appLatency = await latency(appLanesNow, rate, settings.durationS)
      const appRate = await throughput(appLanesNow, settings.durationS)
      closeLanes(appLanesNow)
      const bareLanesNow = await bareSide()
      const bareLatency = await latency(bareLanesNow, rate, settings.durationS)
      const bareRate = await throughput(bareLanesNow, settings.durationS)
      closeLanes(bareLanesNow)
      const latencyRatio = appLatency.p50 / bareLatency.p50
      const rateRatio = appRate / bareRate
      rows.push([
        name,
        ms(appLatency.p50),
        ms(appLatency.p99),
        format(appRate),
        ms(bareLatency.p50),
        ms(bareLatency.p99),
        format(bareRate),
        latencyRatio.toFixed(1),
        (appLatency.p99 / bareLatency.p99).toFixed(1),
        rateRatio.toFixed(2),
        latencyRatio <= LATENCY_GOAL && rateRatio >= THROUGHPUT_GOAL ? 'met' : 'BELOW',
      ])
      console.log(`  ${name}: p50 ${ms(appLatency.p50)} ms vs ${ms(bareLatency.p50)} ms bare`)
    }

    const appReceivers = (on: Server) =>
      hosts.map((host) => ({ id: host.id, connect: () => appSocket(on, host) }))
    const bareReceivers = (on: Server, tag: string) =>
      hosts.map((_, k) => ({
        id: `${tag}-p${k}`,
        connect: () => open(`${on.url}/?id=${tag}-p${k}`),
      }))
    await compare(
      'publish → B, one instance',
      () => publishLanes(app, appReceivers(app)),
      () => publishLanes(bare, bareReceivers(bare, 'one')),
      RATE,
    )
    await compare(
      'A writes → B, one instance',
      () => appLanes(app, app, fans, hosts),
      () => relayLanes(bare, bare, LANES, 'one'),
      RATE,
    )

    if (await redisReachable(REDIS_URL, 'bench/realtime.ts')) {
      const first = await start('app + Redis (1)', { REDIS_URL })
      const second = await start('app + Redis (2)', { REDIS_URL })
      const bareFirst = await relay('bare relay + Redis (1)', REDIS_URL)
      const bareSecond = await relay('bare relay + Redis (2)', REDIS_URL)
      await compare(
        'publish → B, two instances via Redis',
        () => publishLanes(first, appReceivers(second)),
        () => publishLanes(bareFirst, bareReceivers(bareSecond, 'two')),
        RATE,
      )
      await compare(
        'A writes → B, two instances via Redis',
        () => appLanes(first, second, fans, hosts),
        () => relayLanes(bareFirst, bareSecond, LANES, 'two'),
        RATE,
      )
    }

    printTable(
      [
        'row',
        'p50 ms',
        'p99 ms',
        'max/s',
        'bare p50 ms',
        'bare p99 ms',
        'bare max/s',
        `p50 ratio (goal ≤ ${LATENCY_GOAL})`,
        'p99 ratio',
        `max/s ratio (goal ≥ ${THROUGHPUT_GOAL})`,
        'goals',
      ],
      rows,
    )
    console.log(
      `\nidle sockets: app ${kib(appIdle.rss)} RSS and ${kib(appIdle.heap)} heap per socket ` +
        `(${IDLE} held); bare ws ${kib(bareIdle.rss)} and ${kib(bareIdle.heap)}.` +
        '\nlatency from the scheduled send at the offered rate (open loop); max/s with ' +
        `${LANES} senders each waiting for its delivery (closed loop). "publish → B": the ` +
        'server publishes an event (asked over IPC, both sides): the realtime layer alone. ' +
        '"A writes → B": a direct message sent through /api (session, limit, transaction) and ' +
        "its event, against a frame from A's socket the bare relay forwards as it is.",
    )
    return 0
  } finally {
    await Promise.all(servers.map((server) => server.close()))
    await rm(dataDir, { recursive: true, force: true })
  }
}

runBench(main)
