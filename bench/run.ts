/**
 * `npm run bench`: requests per second of the pages a guest sees and of the JSON API, each
 * measured next to a bare baseline in the same run (see baseline.ts), so that the ratios mean
 * something on a shared, noisy machine where absolute numbers do not.
 *
 * Environment: BENCH_DURATION_S (seconds measured per row, default 5), BENCH_WARMUP_S (default
 * 1), BENCH_CONNECTIONS (default 10), BENCH_CPU_PROF (a directory: the app servers then run
 * with --cpu-prof and leave their profiles there on exit), BENCH_ROWS (a comma-separated list
 * of row names or parts of them, default all).
 *
 * Every server runs in its own process on 127.0.0.1; this process only generates load.
 * Exits non-zero when a server fails to start or a row sees non-2xx responses or errors.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { GUEST_CACHE_SECONDS } from '#features/api/contract.ts'
import { demoReadingPaths } from '#tests/support/first-load.ts'
import { callApi } from '#tests/support/http.ts'
import { signedInCookie } from '#tests/support/signed-in-user.ts'
import { markupBeforeScripts, SIGNED_IN_PREFIX } from './baseline.ts'
import {
  fetchOk,
  format,
  formatBytes,
  type Measurement,
  measure,
  printTable,
  problems,
  settings,
  type Target,
} from './measure.ts'
import { BenchError, runBench, type Server, startServer } from './servers.ts'
import { reportBytesOnTheWire } from './wire.ts'

const selectedRows = process.env.BENCH_ROWS?.split(',').map((name) => name.trim())

/** Guest pages from the page cache, by requests per second. */
const CACHED_TARGET = 0.25
/** Pages rendered per request (a cache miss, a signed-in reader), by server CPU. */
const RENDERED_TARGET = 0.35
/** `/api/courses` against bare Fastify serialising the same body, by server CPU. */
const JSON_TARGET = 0.5
/** `/api/search` against the same, by server CPU. */
const SEARCH_TARGET = 0.25
const COURSES_API = '/api/courses'
const SEARCH_API = '/api/search?q=JavaScript'

const TABLE_HEADER = [
  'row',
  'req/s',
  'p99 ms',
  'cpu ms/req',
  'size',
  'baseline req/s',
  'baseline cpu ms/req',
  'ratio',
  'cpu ratio',
  'target',
]

type Row = {
  name: string
  app: Target
  baseline: Target
  page: boolean
  /** What the row is held to: req/s ratio (cached pages) or CPU ratio (everything rendered). */
  target: { by: 'rps' | 'cpu'; at: number }
}

async function main(): Promise<number> {
  const servers: Server[] = []
  const dataDir = await mkdtemp(path.join(tmpdir(), 'techlab-bench-'))
  try {
    // Both app servers share one data directory, so they serve byte-identical pages. The
    // first start migrates and seeds it; the second finds it seeded.
    const cached = await startServer(settings.cpuProfDir, 'app (page cache as configured)', {
      type: 'start',
      server: 'app',
      dataDir,
    })
    servers.push(cached)
    const uncached = await startServer(settings.cpuProfDir, 'app (PAGE_CACHE_MAX_ENTRIES=0)', {
      type: 'start',
      server: 'app',
      dataDir,
      pageCacheMaxEntries: 0,
    })
    servers.push(uncached)

    const demo = await demoReadingPaths(uncached.url)
    const reader = await signedInReader(uncached, demo)
    const guestPaths = ['/', '/courses', demo.course, demo.lesson, demo.author]
    const readerPaths = [...guestPaths, '/drafts']
    const baseline = await startServer(settings.cpuProfDir, 'bare Fastify baseline', {
      type: 'start',
      server: 'baseline',
      input: {
        dataDir,
        pagePaths: guestPaths,
        signedIn: { cookie: reader, pagePaths: readerPaths },
        apiPaths: [COURSES_API, SEARCH_API],
      },
    })
    servers.push(baseline)

    const names: Record<string, string> = {
      '/': '/',
      '/courses': '/courses',
      [demo.course]: 'a course',
      [demo.lesson]: 'a lesson',
      [demo.author]: 'a profile',
      '/drafts': '/drafts',
    }
    const guestRow = (server: Server, pathname: string, cache: boolean): Row => ({
      name: `guest ${names[pathname]} (${cache ? 'page cache' : 'no cache'})`,
      app: { server, url: `${server.url}${pathname}` },
      baseline: { server: baseline, url: `${baseline.url}${pathname}` },
      page: true,
      target: cache ? { by: 'rps', at: CACHED_TARGET } : { by: 'cpu', at: RENDERED_TARGET },
    })
    const readerRow = (pathname: string): Row => ({
      name: `signed in ${names[pathname]}`,
      app: { server: uncached, url: `${uncached.url}${pathname}`, headers: { cookie: reader } },
      baseline: {
        server: baseline,
        url: `${baseline.url}${SIGNED_IN_PREFIX}${pathname === '/' ? '' : pathname}`,
      },
      page: true,
      target: { by: 'cpu', at: RENDERED_TARGET },
    })
    const allRows: Row[] = [
      guestRow(cached, '/', true),
      guestRow(cached, '/courses', true),
      ...guestPaths.map((pathname) => guestRow(uncached, pathname, false)),
      ...readerPaths.map(readerRow),
      ...[COURSES_API, SEARCH_API].flatMap((address) => {
        const target = {
          by: 'cpu' as const,
          at: address === COURSES_API ? JSON_TARGET : SEARCH_TARGET,
        }
        return [cached, uncached].map((server) => ({
          name: `GET ${address} (${server === cached ? 'guest cache' : 'no cache'})`,
          app: { server, url: `${server.url}${address}` },
          baseline: {
            server: baseline,
            url: `${baseline.url}${new URL(address, baseline.url).pathname}`,
          },
          page: false,
          target,
        }))
      }),
    ]

    const rows = allRows.filter(
      (row) => !selectedRows || selectedRows.some((name) => row.name.includes(name)),
    )
    if (rows.length === 0) throw new BenchError(`BENCH_ROWS matches no row: ${selectedRows}`)

    const notes = await checkComparability(rows, cached, uncached)
    const sizes = new Map<string, number>()
    for (const { name, app } of rows) {
      sizes.set(name, (await fetchOk(app.url, app.headers)).bytes)
    }

    console.log(
      `\nautocannon: ${settings.connections} connections, ${settings.warmupS} s warm-up + ` +
        `${settings.durationS} s per row and per baseline; Node ${process.version}\n`,
    )
    const results: { row: Row; measured: Measurement; base: Measurement }[] = []
    for (const [index, row] of rows.entries()) {
      // Alternate which goes first, so a drifting machine does not favour one side.
      let measured: Measurement
      let base: Measurement
      if (index % 2 === 0) {
        measured = await measure(row.app)
        base = await measure(row.baseline)
      } else {
        base = await measure(row.baseline)
        measured = await measure(row.app)
      }
      results.push({ row, measured, base })
      console.log(
        `  ${row.name}: ${format(measured.rps)} req/s, ${measured.cpuMs.toFixed(2)} ms CPU vs ` +
          `baseline ${format(base.rps)} req/s, ${base.cpuMs.toFixed(2)} ms CPU`,
      )
    }

    printTable(
      TABLE_HEADER,
      results.map(({ row, measured, base }) => {
        const ratio = measured.rps / base.rps
        const cpuRatio = base.cpuMs / measured.cpuMs
        const held = row.target.by === 'rps' ? ratio : cpuRatio
        return [
          row.name,
          format(measured.rps),
          measured.p99.toFixed(1),
          measured.cpuMs.toFixed(2),
          formatBytes(sizes.get(row.name) ?? 0),
          format(base.rps),
          base.cpuMs.toFixed(2),
          ratio.toFixed(2),
          cpuRatio.toFixed(2),
          `${held >= row.target.at ? 'met' : 'BELOW'} (${row.target.by === 'rps' ? 'ratio' : 'cpu'} ${row.target.at})`,
        ]
      }),
    )
    console.log(
      `\nratio = row req/s / baseline req/s, measured seconds apart in this run; cpu ratio = ` +
        `baseline / row server CPU time per response (less sensitive to a noisy machine).` +
        `\nbaseline for pages: bare Fastify + renderToString of the app's own components from its ` +
        `server build, with the data its loaders gave once, for a guest or for the same signed-in ` +
        `reader (no routing, sessions, loaders or database per request); for JSON: bare Fastify ` +
        `serialising the same body.\ntargets: cached guest pages >= ${CACHED_TARGET} by req/s; ` +
        `pages rendered per request >= ${RENDERED_TARGET} by CPU; /api/courses >= ${JSON_TARGET} ` +
        `and /api/search >= ${SEARCH_TARGET} by CPU (guest cache: what guests get within ` +
        `${GUEST_CACHE_SECONDS} s of each other; no cache: every answer computed).`,
    )
    for (const note of notes) console.log(`note: ${note}`)
    await reportBytesOnTheWire(cached.url, await guestPagePaths(cached.url))

    const failures = results.flatMap(({ row, measured, base }) => [
      ...problems(row.name, measured),
      ...problems(`baseline of ${row.name}`, base),
    ])
    for (const failure of failures) console.error(`FAILED: ${failure}`)
    return failures.length > 0 ? 1 : 0
  } finally {
    await Promise.all(servers.map((server) => server.close()))
    await rm(dataDir, { recursive: true, force: true })
  }
}

/**
 * A signed-in reader with something of their own on every page measured: two draft courses,
 * a followed author, a lesson done. Answers their Cookie header (Amplify's cookies).
 */
async function signedInReader(
  server: Server,
  demo: Awaited<ReturnType<typeof demoReadingPaths>>,
): Promise<string> {
  const cookie = await signedInCookie(server, 'bench_reader')
  const call = async (method: string, pathname: string, body?: unknown) => {
    const answer = await callApi(server.url, method, pathname, cookie, body)
    if (answer.status >= 300) throw new BenchError(`${method} /api${pathname}: ${answer.status}`)
  }
  for (const title of ['下書きのコース', 'もうひとつの下書き']) {
    await call('POST', '/courses', {
      title,
      summary: 'ベンチマークの読者の下書き',
      tags: ['Python'],
    })
  }
  await call('POST', `/users${demo.author}/follow`)
  await call('POST', `/users${demo.lesson}/done`)
  return cookie
}

/** Markup and cache behaviour the reader needs to trust the comparison; returns notes. */
async function checkComparability(rows: Row[], cached: Server, uncached: Server) {
  const notes: string[] = []
  for (const row of rows.filter((candidate) => candidate.page)) {
    const real = markupBeforeScripts((await fetchOk(row.app.url, row.app.headers)).text)
    const bare = markupBeforeScripts((await fetchOk(row.baseline.url)).text)
    if (real !== bare) {
      let at = 0
      while (at < real.length && real[at] === bare[at]) at += 1
      notes.push(
        `WARNING ${row.name}: the baseline's markup differs from the real page's at character ${at}: ` +
          `${JSON.stringify(real.slice(at, at + 60))} vs ${JSON.stringify(bare.slice(at, at + 60))}`,
      )
    }
  }
  if (notes.length === 0) {
    notes.push(`pages: the baselines' markup up to the first <script> is identical to the app's`)
  }
  await fetchOk(`${cached.url}/`)
  const hit = (await fetchOk(`${cached.url}/`)).headers.get('x-page-cache')
  const none = (await fetchOk(`${uncached.url}/`)).headers.get('x-page-cache')
  notes.push(`x-page-cache on a repeated GET /: "${hit}" (cached server), "${none}" (no cache)`)
  return notes
}

/** Pages whose first load the wire report measures: fixed ones and the demo's course and lesson. */
async function guestPagePaths(origin: string): Promise<string[]> {
  const demo = await demoReadingPaths(origin)
  return ['/', '/courses', '/example', '/studies', '/labs', demo.course, demo.lesson, demo.author]
}

runBench(main)
