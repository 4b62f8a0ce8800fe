/**
 * `npm run bench`: requests per second of the pages a guest sees and of the JSON API, each
 * measured next to a bare baseline in the same run (see baseline.ts), so that the ratios mean
 * something on a shared, noisy machine where absolute numbers do not.
 *
 * Environment: BENCH_DURATION_S (seconds measured per row, default 5), BENCH_WARMUP_S (default
 * 1), BENCH_CONNECTIONS (default 10), BENCH_CPU_PROF (a directory: the app servers then run
 * with --cpu-prof and leave their profiles there on exit).
 *
 * Every server runs in its own process on 127.0.0.1; this process only generates load.
 * Exits non-zero when a server fails to start or a row sees non-2xx responses or errors.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { demoReadingPaths } from '#tests/support/first-load.ts'
import { markupBeforeScripts } from './baseline.ts'
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
import { runBench, type Server, startServer } from './servers.ts'
import { reportBytesOnTheWire } from './wire.ts'

const TARGET_RATIO = 0.25

const TABLE_HEADER = [
  'row',
  'req/s',
  'p99 ms',
  'cpu ms/req',
  'size',
  'baseline req/s',
  'baseline p99 ms',
  'baseline cpu ms/req',
  'baseline size',
  'ratio',
  'cpu ratio',
  `target ${TARGET_RATIO}`,
]

type Row = { name: string; app: Target; baseline: Target; page: boolean }

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

    const baseline = await startServer(settings.cpuProfDir, 'bare Fastify baseline', {
      type: 'start',
      server: 'baseline',
      input: { dataDir, pagePaths: ['/', '/courses'] },
    })
    servers.push(baseline)

    const pair = (name: string, server: Server, pathname: string, page: boolean): Row => ({
      name,
      app: { server, url: `${server.url}${pathname}` },
      baseline: { server: baseline, url: `${baseline.url}${pathname}` },
      page,
    })
    const rows = [
      pair('GET / (page cache)', cached, '/', true),
      pair('GET / (no cache)', uncached, '/', true),
      pair('GET /courses (page cache)', cached, '/courses', true),
      pair('GET /courses (no cache)', uncached, '/courses', true),
      pair('GET /api/courses', cached, '/api/courses', false),
    ]

    const notes = await checkComparability(rows, cached, uncached)
    const sizes = new Map<string, number>()
    for (const { app, baseline } of rows) {
      sizes.set(app.url, (await fetchOk(app.url)).bytes)
      sizes.set(baseline.url, (await fetchOk(baseline.url)).bytes)
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
        `  ${row.name}: ${format(measured.rps)} req/s vs baseline ${format(base.rps)} req/s`,
      )
    }

    printTable(
      TABLE_HEADER,
      results.map(({ row, measured, base }) => {
        const ratio = measured.rps / base.rps
        return [
          row.name,
          format(measured.rps),
          measured.p99.toFixed(1),
          measured.cpuMs.toFixed(2),
          formatBytes(sizes.get(row.app.url) ?? 0),
          format(base.rps),
          base.p99.toFixed(1),
          base.cpuMs.toFixed(2),
          formatBytes(sizes.get(row.baseline.url) ?? 0),
          ratio.toFixed(2),
          (base.cpuMs / measured.cpuMs).toFixed(2),
          row.page ? (ratio >= TARGET_RATIO ? 'met' : 'BELOW') : '-',
        ]
      }),
    )
    console.log(
      `\nratio = row req/s / baseline req/s, measured seconds apart in this run; cpu ratio = ` +
        `baseline / row server CPU time per response (less sensitive to a noisy machine).` +
        `\nbaseline for pages: bare Fastify + renderToString of the app's own components from its ` +
        `server build, with the data its loaders gave once (no routing, sessions, loaders or ` +
        `database per request); for JSON: bare Fastify ` +
        `serialising the same body.\ntarget: pages a guest sees at >= ${TARGET_RATIO} of the ` +
        `page baseline.`,
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

/** Markup and cache behaviour the reader needs to trust the comparison; returns notes. */
async function checkComparability(rows: Row[], cached: Server, uncached: Server) {
  const notes: string[] = []
  for (const row of rows.filter((candidate) => candidate.page)) {
    const real = markupBeforeScripts((await fetchOk(row.app.url)).text)
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
