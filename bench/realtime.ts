/**
 * `npm run bench` (realtime): the /realtime endpoint next to a bare `ws` server
 * (ws-relay.ts) in the same run, each figure printed beside the bare one with its goal (latency
 * at most 2× the bare server's, throughput at least half of it); not a test.
 *
 * - idle: BENCH_REALTIME_IDLE (default 2,000) signed-in sockets held open on one instance,
 *   memory per socket (RSS and heap after a full GC) against as many on the bare server;
 * - noise: the bare server against a second one, the row's two sides equal: how far apart the
 *   machine alone puts them in this run (a shared machine can give BELOW to equal sides);
 * - publish → B: an event the server publishes (asked over IPC, both sides) to B's socket: the
 *   realtime layer alone, like for like;
 * - A writes → B: a direct message sent through /api (stored in its transaction) to the other
 *   member's socket event, against a bare HTTP POST that stores the message in SQLite the same
 *   way (its own transaction) and sends it to B's socket: store-then-deliver on both sides;
 *   each with p50/p99 from the scheduled send at BENCH_REALTIME_RATE (default 200) per second
 *   (open loop), then the most deliveries per second with 8 senders each waiting for its
 *   delivery (closed loop), and the servers' CPU time per delivery;
 * - the same two across two instances through Redis (the machine's, BENCH_REDIS_URL), against
 *   two bare servers joined through Redis; both pairs store in a fresh PostgreSQL database of
 *   BENCH_DATABASE_URL's server (default the machine's; one SQLite file if unreachable), as
 *   instances behind a balancer do.
 *
 * The output says what each side does per delivery. BENCH_DURATION_S (default 5) is each
 * phase's length; BENCH_REALTIME_ROWS (idle,noise,publish,write) runs a subset, e.g. while
 * profiling with BENCH_CPU_PROF. Every server runs in its own process.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import WebSocket from 'ws'
import { createPostgresDatabase } from '#db/test-support.ts'
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
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
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

/**
 * Resolves at `at` or just after, never before: a timer fires on the loop's millisecond clock
 * and can run up to a millisecond early by `performance.now()`, which made sends start before
 * their scheduled time (negative latencies); the last stretch is spun with setImmediate.
 */
async function sleepUntil(at: number): Promise<void> {
  const wait = at - performance.now() - 1
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
  while (performance.now() < at) await new Promise((resolve) => setImmediate(resolve))
}

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
async function throughput(lanes: Lane[], durationS: number) {
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
  return { rate: delivered / durationS, count: delivered }
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

/**
 * Lanes through bare relays: sender k POSTs a message to `writeTo`, which stores it and sends it
 * to receiver k on `listenOn` (ws-relay.ts).
 */
async function bareWriteLanes(writeTo: Server, listenOn: Server, count: number, tag: string) {
  const lanes: Lane[] = []
  const url = `${writeTo.url.replace(/^ws:/, 'http:')}/messages`
  for (let index = 0; index < count; index++) {
    const from = `${tag}-a${index}`
    const to = `${tag}-b${index}`
    const socket = await open(`${listenOn.url}/?id=${to}`)
    lanes.push({
      receiver: receiver(socket, (frame) => frame.startsWith('{"type":"message.created"')),
      send: async () => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ from, to, body: 'ベンチマークのメッセージ' }),
        })
        await response.json()
        if (!response.ok) throw new BenchError(`POST /messages answered ${response.status}`)
      },
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

/** One side of a row: its lanes, and the servers whose CPU time its deliveries cost. */
type Side = { lanes: Lane[]; servers: Server[] }

type SideResult = {
  p50: number
  p99: number
  rate: number
  /** Server CPU time (all of the side's servers) per delivery, over both phases, in µs. */
  cpuMicros: number
}

async function cpuOf(servers: Server[]): Promise<number> {
  const times = await Promise.all(servers.map((server) => server.cpuMicros()))
  return times.reduce((sum, time) => sum + time, 0)
}

async function measureSide(side: () => Promise<Side>): Promise<SideResult> {
  const { lanes, servers } = await side()
  const cpuBefore = await cpuOf(servers)
  const measured = await latency(lanes, RATE, settings.durationS)
  const most = await throughput(lanes, settings.durationS)
  const cpu = (await cpuOf(servers)) - cpuBefore
  closeLanes(lanes)
  return {
    p50: measured.p50,
    p99: measured.p99,
    rate: most.rate,
    cpuMicros: cpu / (measured.count + most.count),
  }
}

/** A figure beside its bare one, and whether it meets the goal (`at most` or `at least` × bare). */
function verdict(app: number, bare: number, goal: number, direction: 'at most' | 'at least') {
  const ratio = app / bare
  const met = direction === 'at most' ? ratio <= goal : ratio >= goal
  return `${ratio.toFixed(2)}× ${met ? 'met' : 'BELOW'}`
}

/** Which rows to run: BENCH_REALTIME_ROWS, a comma-separated subset of idle,noise,publish,write. */
function selectedRows(): Set<string> {
  const all = ['idle', 'noise', 'publish', 'write']
  const chosen = (process.env.BENCH_REALTIME_ROWS ?? all.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  const unknown = chosen.filter((name) => !all.includes(name))
  if (unknown.length > 0 || chosen.length === 0) {
    throw new BenchError(`BENCH_REALTIME_ROWS must name some of ${all.join(', ')}`)
  }
  return new Set(chosen)
}

const PUBLISH_WORK = {
  app: "IPC message → realtime.publish (JSON.stringify of the event once) → the fan-out → each of the user's sockets: readyState and backlog checks, ws send",
  bare: 'IPC message → JSON.stringify of the event → ws send to the named socket',
}
const PUBLISH_REDIS_WORK = {
  app: `${PUBLISH_WORK.app.replace(' → each of', ', no local socket → Redis PUBLISH of an envelope; the other instance parses it → each of')}`,
  bare: 'IPC message → JSON.stringify of the event, no local socket → Redis PUBLISH of an envelope; the other relay parses it → ws send',
}
const WRITE_WORK = {
  app: 'HTTP POST /api/dms/rooms/{id}/messages: Origin check, session (JWT verify, user lookup), rate limit, zod, a transaction (membership and block, room version, insert, read marker, the stored row read back), 201 with the message; then message.created and room.read to both members',
  bare: 'HTTP POST /messages: JSON.parse, a transaction with one INSERT (node:sqlite, WAL, synchronous=NORMAL, as the app), 201 with the message; then message.created to the recipient',
}

async function main(): Promise<number> {
  const rowsToRun = selectedRows()
  const servers: Server[] = []
  const dataDir = await mkdtemp(path.join(tmpdir(), 'techlab-bench-realtime-'))
  const bareDataDir = await mkdtemp(path.join(tmpdir(), 'techlab-bench-ws-relay-'))
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
  const relay = async (name: string, redisUrl?: string, databaseUrl?: string) => {
    const server = await startServer(undefined, name, {
      type: 'start',
      server: 'ws-relay',
      redisUrl,
      channel: `bench:ws-relay:${process.pid}`,
      dataDir: bareDataDir,
      databaseUrl,
    })
    servers.push(server)
    return server
  }
  const databases: { url: string; drop(): Promise<void> }[] = []
  try {
    const app = await start('app', {})
    const bare = await relay('bare ws relay')
    const user = async (username: string, on: Server = app): Promise<User> => {
      const tokens = await signedInUser(on, username)
      const cookie = amplifyCookieHeader(CLIENT_ID, username, tokens)
      return { username, cookie, id: subOf(tokens.accessToken) }
    }
    const fans = await Promise.all(Array.from({ length: LANES }, (_, k) => user(`fan_${k}`)))
    const hosts = await Promise.all(Array.from({ length: LANES }, (_, k) => user(`host_${k}`)))

    console.log(
      `\nrealtime: ${RATE} deliveries/s offered over ${LANES} pairs, then ${LANES} senders in a ` +
        `closed loop, ${settings.durationS} s each per row and side; Node ${process.version}\n`,
    )
    let idle:
      | { app: { rss: number; heap: number }; bare: { rss: number; heap: number } }
      | undefined
    if (rowsToRun.has('idle')) {
      const idlers = [await user('idle_a'), await user('idle_b'), await user('idle_c')]
      const appIdle = await idleMemory(app, (index) =>
        appSocket(app, idlers[index % idlers.length] as User),
      )
      const bareIdle = await idleMemory(bare, (index) => open(`${bare.url}/?id=idle-${index}`))
      idle = { app: appIdle, bare: bareIdle }
      console.log(
        `  idle: app ${kib(appIdle.rss)} RSS, ${kib(appIdle.heap)} heap per socket; ` +
          `bare ${kib(bareIdle.rss)} RSS, ${kib(bareIdle.heap)} heap`,
      )
    }

    const rows: string[][] = []
    const work: string[] = []
    let twoInstanceStore = ''
    const compare = async (
      name: string,
      perMessage: { app: string; bare: string },
      appSide: () => Promise<Side>,
      bareSide: () => Promise<Side>,
    ) => {
      // Alternate which goes first, so a drifting machine does not favour one side.
      let appResult: SideResult
      let bareResult: SideResult
      if (rows.length % 2 === 0) {
        appResult = await measureSide(appSide)
        bareResult = await measureSide(bareSide)
      } else {
        bareResult = await measureSide(bareSide)
        appResult = await measureSide(appSide)
      }
      rows.push([
        name,
        ms(appResult.p50),
        ms(bareResult.p50),
        verdict(appResult.p50, bareResult.p50, LATENCY_GOAL, 'at most'),
        ms(appResult.p99),
        ms(bareResult.p99),
        verdict(appResult.p99, bareResult.p99, LATENCY_GOAL, 'at most'),
        format(appResult.rate),
        format(bareResult.rate),
        verdict(appResult.rate, bareResult.rate, THROUGHPUT_GOAL, 'at least'),
        appResult.cpuMicros.toFixed(0),
        bareResult.cpuMicros.toFixed(0),
      ])
      work.push(`${name}\n    app:  ${perMessage.app}\n    bare: ${perMessage.bare}`)
      console.log(
        `  ${name}: p50 ${ms(appResult.p50)} ms vs ${ms(bareResult.p50)} ms bare; ` +
          `${format(appResult.rate)}/s vs ${format(bareResult.rate)}/s`,
      )
    }

    const appReceivers = (on: Server, receivers = hosts) =>
      receivers.map((host) => ({ id: host.id, connect: () => appSocket(on, host) }))
    const bareReceivers = (on: Server, tag: string) =>
      hosts.map((_, k) => ({
        id: `${tag}-p${k}`,
        connect: () => open(`${on.url}/?id=${tag}-p${k}`),
      }))
    if (rowsToRun.has('noise')) {
      // The same bare server on both sides: how far apart two equal sides land on this machine
      // now, and so which verdicts below the noise alone could give.
      const twin = await relay('bare ws relay (twin)')
      await compare(
        'noise: bare vs bare, publish → B',
        { app: `the bare side's work, on a second bare server`, bare: PUBLISH_WORK.bare },
        async () => ({
          lanes: await publishLanes(twin, bareReceivers(twin, 'twin')),
          servers: [twin],
        }),
        async () => ({
          lanes: await publishLanes(bare, bareReceivers(bare, 'one')),
          servers: [bare],
        }),
      )
    }
    if (rowsToRun.has('publish')) {
      await compare(
        'publish → B, one instance',
        PUBLISH_WORK,
        async () => ({ lanes: await publishLanes(app, appReceivers(app)), servers: [app] }),
        async () => ({
          lanes: await publishLanes(bare, bareReceivers(bare, 'one')),
          servers: [bare],
        }),
      )
    }
    if (rowsToRun.has('write')) {
      await compare(
        'A writes → B, one instance',
        WRITE_WORK,
        async () => ({ lanes: await appLanes(app, app, fans, hosts), servers: [app] }),
        async () => ({ lanes: await bareWriteLanes(bare, bare, LANES, 'one'), servers: [bare] }),
      )
    }

    if (
      (rowsToRun.has('publish') || rowsToRun.has('write')) &&
      (await redisReachable(REDIS_URL, 'bench/realtime.ts'))
    ) {
      // Instances behind a balancer share PostgreSQL, not a SQLite file: two
      // processes on one file wait for each other's write lock with their event loops blocked.
      const appDatabase = await postgresDatabase()
      const bareDatabase = appDatabase && (await postgresDatabase())
      if (appDatabase) databases.push(appDatabase)
      if (bareDatabase) databases.push(bareDatabase)
      twoInstanceStore = appDatabase
        ? 'PostgreSQL (a pool of 10 per process)'
        : 'one SQLite file (PostgreSQL unreachable)'
      const appsOn: Record<string, string> = appDatabase ? { DATABASE_URL: appDatabase.url } : {}
      const first = await start('app + Redis (1)', { REDIS_URL, ...appsOn })
      const second = await start('app + Redis (2)', { REDIS_URL, ...appsOn })
      const bareFirst = await relay('bare relay + Redis (1)', REDIS_URL, bareDatabase?.url)
      const bareSecond = await relay('bare relay + Redis (2)', REDIS_URL, bareDatabase?.url)
      // Users of the database these instances use.
      const twoFans = appDatabase
        ? await Promise.all(fans.map((fan) => user(fan.username, first)))
        : fans
      const twoHosts = appDatabase
        ? await Promise.all(hosts.map((host) => user(host.username, first)))
        : hosts
      if (rowsToRun.has('publish')) {
        await compare(
          'publish → B, two instances via Redis',
          PUBLISH_REDIS_WORK,
          async () => ({
            lanes: await publishLanes(first, appReceivers(second, twoHosts)),
            servers: [first, second],
          }),
          async () => ({
            lanes: await publishLanes(bareFirst, bareReceivers(bareSecond, 'two')),
            servers: [bareFirst, bareSecond],
          }),
        )
      }
      if (rowsToRun.has('write')) {
        await compare(
          'A writes → B, two instances via Redis',
          {
            app: `${WRITE_WORK.app}, through Redis to the other instance; both instances on ${twoInstanceStore}`,
            bare: `${WRITE_WORK.bare.replace('node:sqlite, WAL, synchronous=NORMAL, as the app', `${twoInstanceStore}, as the apps`)}, through Redis to the other relay`,
          },
          async () => ({
            lanes: await appLanes(first, second, twoFans, twoHosts),
            servers: [first, second],
          }),
          async () => ({
            lanes: await bareWriteLanes(bareFirst, bareSecond, LANES, 'two'),
            servers: [bareFirst, bareSecond],
          }),
        )
      }
    }

    if (rows.length > 0) {
      printTable(
        [
          'row',
          'p50 ms',
          'bare p50',
          `p50 ≤ ${LATENCY_GOAL}×`,
          'p99 ms',
          'bare p99',
          `p99 ≤ ${LATENCY_GOAL}×`,
          'max/s',
          'bare max/s',
          `max/s ≥ ${THROUGHPUT_GOAL}×`,
          'server µs/delivery',
          'bare µs/delivery',
        ],
        rows,
      )
    }
    if (idle) {
      console.log(
        `\nidle sockets: app ${kib(idle.app.rss)} RSS and ${kib(idle.app.heap)} heap per socket ` +
          `(${IDLE} held); bare ws ${kib(idle.bare.rss)} and ${kib(idle.bare.heap)}.`,
      )
    }
    console.log(
      `\nlatency: from each delivery's scheduled time at ${RATE}/s (open loop) to its frame's ` +
        `arrival at B; max/s: ${LANES} senders each waiting for its delivery (closed loop); ` +
        'server µs/delivery: CPU time of the side’s server processes over both phases, per ' +
        'delivery (steadier than latency on a shared machine). Goals: ' +
        `latency ≤ ${LATENCY_GOAL}× bare, throughput ≥ ${THROUGHPUT_GOAL}× bare.` +
        '\nwhat each side does per delivery:',
    )
    for (const line of work) console.log(`  ${line}`)
    return 0
  } finally {
    await Promise.all(servers.map((server) => server.close()))
    await rm(dataDir, { recursive: true, force: true })
    await rm(bareDataDir, { recursive: true, force: true })
    await Promise.all(databases.map((database) => database.drop()))
  }
}

/** A fresh PostgreSQL database on BENCH_DATABASE_URL's server, or undefined if unreachable. */
async function postgresDatabase() {
  try {
    return await createPostgresDatabase(POSTGRES_URL)
  } catch (error) {
    console.log(`note: PostgreSQL at ${POSTGRES_URL} unreachable (${String(error)})`)
    return undefined
  }
}

runBench(main)
