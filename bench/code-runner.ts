/**
 * `npm run bench`: the browser's code runners (app/lib/code-runner, docs/decisions/032) in
 * Debian's Chromium against the production server: how soon the JavaScript runner is ready,
 * Python's cold start on first use (time and bytes over the wire, from a local server: the
 * network is nearly free, so this is mostly the browser compiling and starting Pyodide), and
 * the time from 「実行」 to the first output of `print('こんにちは')` on later runs. Figures
 * against the goals (JavaScript ready ≤ 50 ms, later runs ≤ 100 ms to first output);
 * a report, not a gate.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import type { CodeLanguage } from '#features/exercises/code-run.ts'
import { launchBrowser } from '#tests/e2e/browser.ts'
import { formatBytes, positiveNumber, printTable } from './measure.ts'
import { BenchError, runBench, startServer } from './servers.ts'

const ROUNDS = positiveNumber('BENCH_RUNNER_ROUNDS', 20)
const GOALS = { javascriptReadyMs: 50, firstOutputMs: 100 } as const

async function runnerChunk(): Promise<string> {
  const assets = path.resolve(import.meta.dirname, '../build/client/assets')
  const file = (await readdir(assets)).find((name) => /^code-runner-[\w-]+\.js$/.test(name))
  if (!file) throw new BenchError('build/client/assets has no code-runner chunk: npm run build')
  return `/assets/${file}`
}

type Window = {
  __bench: {
    createBrowserRunner: typeof import('#app/lib/code-runner/browser-runner.ts').createBrowserRunner
  }
}

/** A fresh runner's time to ready (spawn to the worker's first message), and its bytes. */
function ready(page: Page, language: CodeLanguage) {
  return page.evaluate(async (language) => {
    const { createBrowserRunner } = (window as unknown as Window).__bench
    const runner = createBrowserRunner()
    const stats = await runner.preload(language)
    runner.dispose()
    if (!stats) throw new Error(`${language} runner failed to load`)
    return stats
  }, language)
}

/** On one loaded runner: from run() to the first output of the greeting, `rounds` times. */
function firstOutput(page: Page, language: CodeLanguage, rounds: number) {
  return page.evaluate(
    async ({ language, rounds }) => {
      const { createBrowserRunner } = (window as unknown as Window).__bench
      let first: number | undefined
      const runner = createBrowserRunner({
        onOutput: () => {
          first ??= performance.now()
        },
      })
      await runner.preload(language)
      const code = language === 'python' ? "print('こんにちは')" : "console.log('こんにちは')"
      const times: number[] = []
      for (let round = 0; round < rounds; round++) {
        first = undefined
        const started = performance.now()
        const result = await runner.run({ language, code, stdin: '', timeLimitMs: 2000 })
        if (result.stdout !== 'こんにちは\n' || first === undefined) {
          throw new Error(`unexpected run: ${JSON.stringify(result)}`)
        }
        times.push(first - started)
        // The JavaScript runner warms its next worker after a run, as between a learner's runs.
        await runner.preload(language)
      }
      runner.dispose()
      return times
    },
    { language, rounds },
  )
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN
}

const ms = (value: number) => `${value.toFixed(1)} ms`

async function main(): Promise<number> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'techlab-code-runner-'))
  const server = await startServer(undefined, 'app', { type: 'start', server: 'app', dataDir })
  const browser = await launchBrowser()
  try {
    const chunk = await runnerChunk()
    // A fresh context: an empty HTTP cache, as a learner's first Python run.
    const context = await browser.newContext({ baseURL: server.url })
    const page = await context.newPage()
    await page.goto('/')
    await page.evaluate(`import(${JSON.stringify(chunk)}).then((m) => { window.__bench = m })`)

    const rows: string[][] = []
    const javascriptReady: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      javascriptReady.push((await ready(page, 'javascript')).loadMs)
    }
    const jsMedian = percentile(javascriptReady, 0.5)
    rows.push([
      'JavaScript runner ready (new Worker)',
      ms(jsMedian),
      ms(percentile(javascriptReady, 0.95)),
      '-',
      `≤ ${GOALS.javascriptReadyMs} ms: ${(jsMedian / GOALS.javascriptReadyMs).toFixed(2)}×`,
    ])

    const cold = await ready(page, 'python')
    rows.push([
      'Python ready, cold (empty cache)',
      ms(cold.loadMs),
      '-',
      formatBytes(cold.transferBytes),
      'report',
    ])
    const warm = await ready(page, 'python')
    rows.push([
      'Python ready, HTTP cache warm',
      ms(warm.loadMs),
      '-',
      formatBytes(warm.transferBytes),
      'report',
    ])

    for (const language of ['javascript', 'python'] as const) {
      const times = await firstOutput(page, language, ROUNDS)
      const median = percentile(times, 0.5)
      rows.push([
        `${language}: run → first output (later runs)`,
        ms(median),
        ms(percentile(times, 0.95)),
        '-',
        `≤ ${GOALS.firstOutputMs} ms: ${(median / GOALS.firstOutputMs).toFixed(2)}×`,
      ])
    }
    printTable(['browser code runners', 'median', 'p95', 'transferred', 'goal (ratio)'], rows)
    // Browser times scale with the machine's load: say what it was.
    console.log(
      `\nload average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' / ')} (1/5/15 min)`,
    )
    await context.close()
    return 0
  } finally {
    await browser.close()
    await server.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}

runBench(main)
