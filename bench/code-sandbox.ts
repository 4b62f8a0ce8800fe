/**
 * `npm run bench` (code sandbox): how many code submissions per second the server verifies for
 * a typical JavaScript and Python question (5 tests each) through the sandbox's pool and queue,
 * as a ratio to running the same tests on the same engine without them — QuickJS called in this
 * thread, one Pyodide worker called directly (goal ≥ 0.8, decision 033) — and native Node
 * running the JavaScript, for reference only. Then the memory the pool holds.
 *
 * Environment: BENCH_DURATION_S (default 5) per row, BENCH_CONCURRENCY (submissions in flight
 * through the pool, default 2).
 */
import { once } from 'node:events'
import { Worker } from 'node:worker_threads'
import {
  allPassed,
  type CodeRunner,
  type CodeRunRequest,
  type CodeRunResult,
  type CodeTest,
  runTests,
} from '#features/exercises/code-run.ts'
import { formatConsoleArgs } from '#features/exercises/console-format.ts'
import { stdinLines } from '#server/code-sandbox/output.ts'
import type { RunMessage, WorkerMessage, WorkerStart } from '#server/code-sandbox/protocol.ts'
import { DEFAULT_QUICKJS_LIMITS, loadQuickJsRunner } from '#server/code-sandbox/quickjs-runner.ts'
import {
  type CodeSandbox,
  createCodeSandbox,
  ENGINES,
  MEMORY_LIMIT_BYTES,
} from '#server/code-sandbox/sandbox.ts'
import { BenchError } from './servers.ts'

const durationS = Number(process.env.BENCH_DURATION_S ?? 5)
const concurrency = Math.max(1, Math.round(Number(process.env.BENCH_CONCURRENCY ?? 2)))

// A beginner's question: read n, print FizzBuzz from 1 to n; five tests.
const tests: CodeTest[] = [1, 5, 15, 30, 100].map((n) => ({
  name: `n = ${n}`,
  stdin: `${n}\n`,
  expectedOutput: Array.from({ length: n }, (_, index) => {
    const i = index + 1
    return i % 15 === 0 ? 'FizzBuzz' : i % 3 === 0 ? 'Fizz' : i % 5 === 0 ? 'Buzz' : String(i)
  }).join('\n'),
}))
const programs = {
  javascript: [
    'const n = Number(input())',
    'for (let i = 1; i <= n; i++) {',
    '  if (i % 15 === 0) console.log("FizzBuzz")',
    '  else if (i % 3 === 0) console.log("Fizz")',
    '  else if (i % 5 === 0) console.log("Buzz")',
    '  else console.log(i)',
    '}',
  ].join('\n'),
  python: [
    'n = int(input())',
    'for i in range(1, n + 1):',
    '    if i % 15 == 0:',
    '        print("FizzBuzz")',
    '    elif i % 3 == 0:',
    '        print("Fizz")',
    '    elif i % 5 == 0:',
    '        print("Buzz")',
    '    else:',
    '        print(i)',
  ].join('\n'),
}
const TIME_LIMIT_MS = 2_000

/** Submissions verified per second by `loops` loops calling `verify` for `seconds`. */
async function throughput(
  seconds: number,
  loops: number,
  verify: (index: number) => Promise<boolean>,
) {
  let done = 0
  let next = 0
  const deadline = performance.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (performance.now() < deadline) {
        if (!(await verify(next++))) throw new BenchError('a correct submission failed its tests')
        done++
      }
    }),
  )
  return done / ((performance.now() - started) / 1000)
}

const judge = async (run: CodeRunner, language: 'javascript' | 'python') =>
  allPassed(
    await runTests(run, { language, code: programs[language], timeLimitMs: TIME_LIMIT_MS }, tests),
    tests,
  )

/** Native Node, for reference: the same program as a function of this process (our own code). */
function nativeRunner(): CodeRunner {
  const program = new Function('input', 'console', programs.javascript)
  return async (request) => {
    const lines = stdinLines(request.stdin)
    const out: string[] = []
    const started = performance.now()
    program(() => lines.shift() ?? null, {
      log: (...args: unknown[]) => out.push(`${formatConsoleArgs(args)}\n`),
    })
    return {
      outcome: 'completed',
      stdout: out.join(''),
      stderr: '',
      durationMs: performance.now() - started,
    }
  }
}

/** One Pyodide worker of the sandbox's own kind, its runs posted straight to it. */
async function directPythonWorker() {
  // Made as the pool makes its workers, without the pool.
  const worker = new Worker(ENGINES.python.workerUrl, {
    workerData: {
      memoryLimitBytes: MEMORY_LIMIT_BYTES,
      interrupt: new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT),
    } satisfies WorkerStart,
    env: {},
    resourceLimits: ENGINES.python.resourceLimits,
  })
  const loading = performance.now()
  const [ready] = (await once(worker, 'message')) as [WorkerMessage]
  if (ready.kind !== 'ready') throw new BenchError(`Pyodide did not load: ${JSON.stringify(ready)}`)
  const loadMs = performance.now() - loading
  let nextId = 0
  const run: CodeRunner = (request: CodeRunRequest) =>
    new Promise<CodeRunResult>((resolve) => {
      const id = nextId++
      const answer = (message: WorkerMessage) => {
        if (message.kind === 'result' && message.id === id) {
          worker.off('message', answer)
          resolve(message.result)
        }
      }
      worker.on('message', answer)
      worker.postMessage({ id, request } satisfies RunMessage)
    })
  return { run, loadMs, close: () => worker.terminate() }
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

const TURNS = 2
const WARM_UP_S = 1

/**
 * Each mode measured in turns, after a warm-up turn (WebAssembly tiers up, the JIT too), so
 * that what else the machine does falls on every mode alike. Mean submissions/s by mode.
 */
async function inTurns<Name extends string>(
  modes: Record<Name, (seconds: number) => Promise<number>>,
): Promise<Record<Name, number>> {
  const means = {} as Record<Name, number>
  for (let turn = 0; turn <= TURNS; turn++) {
    for (const [name, measure] of Object.entries(modes) as [
      Name,
      (s: number) => Promise<number>,
    ][]) {
      if (turn === 0) await measure(WARM_UP_S)
      else means[name] = (means[name] ?? 0) + (await measure(durationS / TURNS)) / TURNS
    }
  }
  return means
}

async function main() {
  const rssBefore = process.memoryUsage().rss
  const quickjs = await loadQuickJsRunner(DEFAULT_QUICKJS_LIMITS)
  const inThread: CodeRunner = async (request) => quickjs.run(request)
  const native = nativeRunner()
  const python = await directPythonWorker()
  const sandbox = createCodeSandbox({
    javascriptWorkers: 1,
    pythonWorkers: 1,
    maxQueued: 64,
    maxWaitMs: 60_000,
  })
  try {
    const submit = (language: 'javascript' | 'python') => async (index: number) =>
      (
        await sandbox.verify(
          `bench@${index}`,
          { language, code: programs[language], timeLimitMs: TIME_LIMIT_MS },
          tests,
        )
      ).passed
    // Cold start: the first submission of each language loads its engine in a new worker.
    const coldJs = performance.now()
    await submit('javascript')(-1)
    const coldJsMs = performance.now() - coldJs
    const coldPy = performance.now()
    await submit('python')(-1)
    const coldPyMs = performance.now() - coldPy

    const timed =
      (loops: number, verify: (index: number) => Promise<boolean>) => (seconds: number) =>
        throughput(seconds, loops, verify)
    const measured = await inTurns({
      jsPooled: timed(concurrency, submit('javascript')),
      jsDirect: timed(1, () => judge(inThread, 'javascript')),
      jsNative: timed(1, () => judge(native, 'javascript')),
      pyPooled: timed(concurrency, submit('python')),
      pyDirect: timed(concurrency, () => judge(python.run, 'python')),
      cached: timed(1, () => submit('javascript')(0)),
    })
    const ratio = (a: number, b: number) => (a / b).toFixed(2)
    const rows = [
      [
        'JavaScript, pool (QuickJS worker)',
        measured.jsPooled.toFixed(1),
        ratio(measured.jsPooled, measured.jsDirect),
      ],
      ['JavaScript, QuickJS in this thread', measured.jsDirect.toFixed(1), '1.00'],
      [
        'JavaScript, native Node (reference)',
        measured.jsNative.toFixed(0),
        ratio(measured.jsNative, measured.jsDirect),
      ],
      [
        'Python, pool (Pyodide worker)',
        measured.pyPooled.toFixed(1),
        ratio(measured.pyPooled, measured.pyDirect),
      ],
      ['Python, one Pyodide worker directly', measured.pyDirect.toFixed(1), '1.00'],
      ['cached verdict (same code, same revision)', measured.cached.toFixed(0), '—'],
    ]
    const stats = sandbox.stats()
    console.log(
      `\nCode sandbox: ${tests.length}-test FizzBuzz submissions, each mode in ${TURNS} turns of ${durationS / TURNS} s ` +
        `after a ${WARM_UP_S} s warm-up, ${concurrency} in flight through the pool (1 worker per language); Node ${process.version}\n`,
    )
    console.log('| row | submissions/s | ratio to the engine alone |')
    console.log('|---|---|---|')
    for (const row of rows) console.log(`| ${row.join(' | ')} |`)
    console.log(
      `\nratio (goal ≥ 0.8): JavaScript ${ratio(measured.jsPooled, measured.jsDirect)}, Python ${ratio(measured.pyPooled, measured.pyDirect)}` +
        `\nfirst submission (engine load in a new worker): JavaScript ${coldJsMs.toFixed(0)} ms, Python ${coldPyMs.toFixed(0)} ms (a Pyodide worker alone: ${python.loadMs.toFixed(0)} ms)` +
        `\nmemory held by the pool: JavaScript ${mb(stats.javascript.memoryBytes)} MB, Python ${mb(stats.python.memoryBytes)} MB ` +
        `(engine memory + worker heap); this process's RSS grew ${mb(process.memoryUsage().rss - rssBefore)} MB in all, the direct Pyodide worker included`,
    )
  } finally {
    await sandbox.close()
    await python.close()
  }
}

/** The middle of some latencies, in ms. */
const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

/**
 * The fair share (decision 045): a learner's Python submission latency while four accounts
 * flood the pool's one Python worker, against the same learner's latency when the pool is idle
 * (goal ≤ 2×). The pool has the server's default per-learner budgets. Two floods, each on a new
 * pool: correct submissions sent as fast as answered, and programs that loop to their time
 * limit; the learner is measured after 2 s of flooding (the flooders still within their
 * budgets) and again once every flooder has been refused (past them). A refused flooder tries
 * again 20 ms later, as a script would. Set BENCH_ONLY=fair-share to run this part alone.
 */
async function fairShare() {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  let unique = 0
  /** A pool like the server's on this machine's size for Python, one worker. */
  const newPool = () =>
    createCodeSandbox({ javascriptWorkers: 1, pythonWorkers: 1, maxQueued: 32, maxWaitMs: 60_000 })
  const submit = async (sandbox: CodeSandbox, learner: string, code: string) => {
    const started = performance.now()
    const verdict = await sandbox.verify(
      'bench-fair',
      // A new comment each time: every submission runs, none is a cached verdict.
      { language: 'python', code: `${code}\n# ${unique++}`, timeLimitMs: TIME_LIMIT_MS },
      tests,
      { learner },
    )
    return { verdict, ms: performance.now() - started }
  }
  /** The fifth learner's submissions, one after another: their latencies. */
  const learnerLatencies = async (sandbox: CodeSandbox) => {
    const latencies: number[] = []
    for (let index = 0; index < 9; index++) {
      const { verdict, ms } = await submit(sandbox, 'learner', programs.python)
      if (!verdict.passed) {
        throw new BenchError(
          `the learner's submission was not verified: ${JSON.stringify(verdict.outcomes.at(-1)?.run)}`,
        )
      }
      latencies.push(ms)
      // A person reads the result before the next try.
      await pause(200)
    }
    return latencies
  }
  const summary = (latencies: number[]) => ({
    median: median(latencies),
    max: Math.max(...latencies),
  })
  /** Four accounts, each with as many submissions in flight as its queue may hold. */
  const flood = (sandbox: CodeSandbox, code: string) => {
    let stop = false
    const refusedAccounts = new Set<string>()
    const counts = { refused: 0, verified: 0 }
    const loops = ['a', 'b', 'c', 'd'].flatMap((account) =>
      Array.from({ length: 4 }, async () => {
        while (!stop) {
          const { verdict } = await submit(sandbox, `flooder-${account}`, code)
          if (verdict.outcomes.at(-1)?.run.outcome === 'unavailable') {
            counts.refused++
            refusedAccounts.add(account)
            await pause(20)
          } else counts.verified++
        }
      }),
    )
    return {
      counts,
      allRefused: () => refusedAccounts.size === 4,
      async end() {
        stop = true
        await Promise.all(loops)
      },
    }
  }
  const rows: string[][] = []
  const floods = {
    'correct submissions': programs.python,
    'loops to the time limit': 'while True:\n    pass',
  }
  for (const [name, code] of Object.entries(floods)) {
    const sandbox = newPool()
    try {
      await submit(sandbox, 'warm-up', programs.python)
      const idleBefore = await learnerLatencies(sandbox)
      const flooding = flood(sandbox, code)
      await pause(2_000)
      const within = await learnerLatencies(sandbox)
      const deadline = performance.now() + 90_000
      while (!flooding.allRefused() && performance.now() < deadline) await pause(250)
      const past = flooding.allRefused() ? await learnerLatencies(sandbox) : undefined
      await flooding.end()
      // The idle latency before and after the flood: the machine's other load drifts.
      await pause(1_000)
      const idle = summary([...idleBefore, ...(await learnerLatencies(sandbox))])
      const row = (phase: string, latencies: number[] | undefined) => {
        if (!latencies)
          return [`${name}, ${phase}`, idle.median.toFixed(0), 'not reached in 90 s', '—']
        const latency = summary(latencies)
        return [
          `${name}, ${phase}`,
          idle.median.toFixed(0),
          `${latency.median.toFixed(0)} (max ${latency.max.toFixed(0)})`,
          (latency.median / idle.median).toFixed(2),
        ]
      }
      rows.push(row('flooders within budget', within), row('flooders past budget', past))
      rows.push([
        `${name}: flood verified / refused (workers replaced)`,
        '',
        `${flooding.counts.verified} / ${flooding.counts.refused} (${sandbox.stats().python.replaced})`,
        '',
      ])
    } finally {
      await sandbox.close()
    }
  }
  console.log(
    `\nFair share: a fifth learner's ${tests.length}-test Python FizzBuzz (median of 9 one after another; idle: 18, before and after) ` +
      'while four accounts flood one Python worker, 4 submissions in flight each; the default per-learner budgets\n',
  )
  console.log('| flood | learner idle ms | learner flooded ms | ratio (goal ≤ 2) |')
  console.log('|---|---|---|---|')
  for (const row of rows) console.log(`| ${row.join(' | ')} |`)
}

if (process.env.BENCH_ONLY !== 'fair-share') await main()
await fairShare()
