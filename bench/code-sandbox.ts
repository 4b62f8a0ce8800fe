/**
 * `npm run bench` (code sandbox, decision 033): a typical JavaScript and Python question (5
 * tests) verified through the sandbox (child processes under the permission model, a fresh
 * engine state per submission) against the same engine called directly in this process (the
 * same work without the isolation), with 1 and 32 learners submitting at once: submissions
 * verified per second, p95 latency of one verification, CPU per submission (this process and
 * its children), and the ratio sandbox / direct (goal ≥ 0.8). Then Python submissions verified
 * per second per core (goal ≥ 4.5), and the alternatives decision 033 weighed: a Python child
 * per run instead of per submission, a JavaScript child per submission.
 *
 * Environment: BENCH_DURATION_S (default 5) per row.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import {
  allPassed,
  type CodeLanguage,
  type CodeRunner,
  type CodeTest,
  runTests,
} from '#features/exercises/code-run.ts'
import { createWorkerPool } from '#server/code-sandbox/pool.ts'
import {
  loadPyodideEngine,
  loadPythonRunner,
  runnerSource,
} from '#server/code-sandbox/pyodide-runner.ts'
import { DEFAULT_QUICKJS_LIMITS, loadQuickJsRunner } from '#server/code-sandbox/quickjs-runner.ts'
import {
  type CodeSandbox,
  createCodeSandbox,
  ENGINES,
  MEMORY_LIMIT_BYTES,
} from '#server/code-sandbox/sandbox.ts'
import {
  DEFAULT_QUEUED_PER_LEARNER,
  DEFAULT_RUN_SECONDS_PER_LEARNER_PER_MINUTE,
} from '#server/code-sandbox/settings.ts'
import { BenchError } from './servers.ts'

const durationS = Number(process.env.BENCH_DURATION_S ?? 5)
const WARM_UP_S = 1
const cores = availableParallelism()

// A beginner's question: read n, print FizzBuzz from 1 to n; five tests.
const tests: CodeTest[] = [1, 5, 15, 30, 100].map((n) => ({
  name: `n = ${n}`,
  stdin: `${n}\n`,
  expectedOutput: Array.from({ length: n }, (_, index) => {
    const i = index + 1
    return i % 15 === 0 ? 'FizzBuzz' : i % 3 === 0 ? 'Fizz' : i % 5 === 0 ? 'Buzz' : String(i)
  }).join('\n'),
}))
const programs: Record<CodeLanguage, string> = {
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

/** One verification: true when the correct program passed every test. */
type Verify = (index: number) => Promise<boolean>

const ticksPerSecond = 100
/** CPU seconds of this process and its children so far (the live ones and the ended ones). */
function cpuSeconds(): number {
  const fields = (pid: string | number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number)
  }
  // Fields 14–17 (utime, stime, cutime, cstime), counted from after the command name.
  const own = fields('self')
  let ticks = (own[11] ?? 0) + (own[12] ?? 0) + (own[13] ?? 0) + (own[14] ?? 0)
  const tasks = `/proc/${process.pid}/task`
  for (const task of readdirSync(tasks)) {
    const file = `${tasks}/${task}/children`
    if (!existsSync(file)) continue
    for (const pid of readFileSync(file, 'utf8').split(' ').filter(Boolean)) {
      try {
        const child = fields(pid)
        ticks += (child[11] ?? 0) + (child[12] ?? 0)
      } catch {
        // Ended between the listing and the read: counted with the ended ones next time.
      }
    }
  }
  return ticks / ticksPerSecond
}

type Row = { perSecond: number; p95Ms: number; cpuMsPerSubmission: number }

/** `learners` loops verifying for `seconds`: rate, p95 latency, CPU per submission. */
async function measure(seconds: number, learners: number, verify: Verify): Promise<Row> {
  let next = 0
  const latencies: number[] = []
  const cpuBefore = cpuSeconds()
  const started = performance.now()
  const deadline = started + seconds * 1000
  await Promise.all(
    Array.from({ length: learners }, async () => {
      while (performance.now() < deadline) {
        const begun = performance.now()
        if (!(await verify(next++))) throw new BenchError('a correct submission failed its tests')
        latencies.push(performance.now() - begun)
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  const cpu = cpuSeconds() - cpuBefore
  latencies.sort((a, b) => a - b)
  return {
    perSecond: latencies.length / elapsed,
    p95Ms: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.95))] ?? 0,
    cpuMsPerSubmission: (cpu * 1000) / Math.max(1, latencies.length),
  }
}

async function row(name: string, learners: number, verify: Verify): Promise<Row> {
  process.stderr.write(`${name}, ${learners} at once… `)
  await measure(WARM_UP_S, learners, verify)
  const measured = await measure(durationS, learners, verify)
  process.stderr.write(`${measured.perSecond.toFixed(1)}/s\n`)
  return measured
}

/** Passed, or a correct program failed: a bench error, with what the runner said. */
function passed(outcomes: Awaited<ReturnType<typeof runTests>>) {
  if (allPassed(outcomes, tests)) return true
  const failure = outcomes.find((outcome) => !outcome.passed)
  throw new BenchError(`a correct submission failed: ${JSON.stringify(failure?.run)}`)
}

const judge = async (run: CodeRunner, language: CodeLanguage) =>
  passed(
    await runTests(run, { language, code: programs[language], timeLimitMs: TIME_LIMIT_MS }, tests),
  )

/** The same engines, called in this process: no child, no fresh state per submission. */
async function directRunners(): Promise<Record<CodeLanguage, CodeRunner>> {
  const quickjs = await loadQuickJsRunner(DEFAULT_QUICKJS_LIMITS)
  const python = loadPythonRunner(await loadPyodideEngine(undefined), runnerSource())
  return {
    javascript: async (request) => quickjs.run(request),
    python: async (request) => python.run(request).result,
  }
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)
const fixed = (value: number, digits = 1) => value.toFixed(digits)

async function main() {
  const direct = await directRunners()
  // One child process per language, as the one engine of the direct rows; then as many as cores.
  const sandbox = createCodeSandbox({
    javascriptWorkers: 1,
    pythonWorkers: 1,
    maxQueued: 64,
    maxWaitMs: 600_000,
  })
  const wide = createCodeSandbox({
    javascriptWorkers: cores,
    pythonWorkers: cores,
    maxQueued: 64,
    maxWaitMs: 600_000,
  })
  // The alternatives: Python children per run (no session), JavaScript children per submission.
  const pools = {
    pythonPerRun: createWorkerPool({
      ...ENGINES.python,
      size: 1,
      maxQueued: 64,
      maxWaitMs: 600_000,
      runMsPerLearnerPerMinute: DEFAULT_RUN_SECONDS_PER_LEARNER_PER_MINUTE * 1_000,
      queuedPerLearner: DEFAULT_QUEUED_PER_LEARNER,
      graceMs: 1_000,
      memoryLimitBytes: MEMORY_LIMIT_BYTES,
    }),
    javascriptPerSubmission: createWorkerPool({
      ...ENGINES.javascript,
      childPerSubmission: true,
      size: 1,
      maxQueued: 64,
      maxWaitMs: 600_000,
      runMsPerLearnerPerMinute: DEFAULT_RUN_SECONDS_PER_LEARNER_PER_MINUTE * 1_000,
      queuedPerLearner: DEFAULT_QUEUED_PER_LEARNER,
      graceMs: 1_000,
      memoryLimitBytes: MEMORY_LIMIT_BYTES,
    }),
  }
  let key = 0
  // The most the one-child sandbox's children held at once (sampled as submissions start).
  const memory = { javascript: 0, python: 0 }
  const through =
    (target: typeof sandbox, language: CodeLanguage): Verify =>
    async () => {
      const held = target.stats()[language]
      if (target === sandbox) memory[language] = Math.max(memory[language], held.memoryBytes)
      return passed(
        (
          await target.verify(
            `bench@${key++}`,
            { language, code: programs[language], timeLimitMs: TIME_LIMIT_MS },
            tests,
          )
        ).outcomes,
      )
    }
  try {
    const coldPy = performance.now()
    await through(sandbox, 'python')(0)
    const coldPyMs = performance.now() - coldPy
    const lines: string[] = []
    const ratios: string[] = []
    for (const language of ['javascript', 'python'] as const) {
      for (const learners of [1, 32]) {
        const alone = await row(`${language} direct`, learners, () =>
          judge(direct[language], language),
        )
        const isolated = await row(`${language} sandbox`, learners, through(sandbox, language))
        const ratio = isolated.perSecond / alone.perSecond
        ratios.push(`${language} ×${learners}: ${fixed(ratio, 2)}`)
        for (const [name, measured] of [
          ['direct, in this process', alone],
          ['sandbox, 1 child process', isolated],
        ] as const) {
          lines.push(
            `| ${language} | ${learners} | ${name} | ${fixed(measured.perSecond)} | ${fixed(measured.p95Ms, 0)} | ${fixed(measured.cpuMsPerSubmission)} | ${measured === isolated ? fixed(ratio, 2) : '1.00'} |`,
          )
        }
      }
      const widened = await row(`${language} sandbox ×${cores}`, 32, through(wide, language))
      lines.push(
        `| ${language} | 32 | sandbox, ${cores} child processes | ${fixed(widened.perSecond)} | ${fixed(widened.p95Ms, 0)} | ${fixed(widened.cpuMsPerSubmission)} | — |`,
      )
      if (language === 'python') {
        const perCore = 1000 / widened.cpuMsPerSubmission
        ratios.push(
          `Python submissions per second per core: ${fixed(perCore, 2)} by CPU per submission, ${fixed(widened.perSecond / cores, 2)} by throughput over ${cores} cores (goal ≥ 4.5)`,
        )
      }
    }
    const perRun = await row('python child per run', 1, () =>
      judge((request) => pools.pythonPerRun.run(request), 'python'),
    )
    lines.push(
      `| python | 1 | a child per run (not per submission), 1 process | ${fixed(perRun.perSecond)} | ${fixed(perRun.p95Ms, 0)} | ${fixed(perRun.cpuMsPerSubmission)} | — |`,
    )
    const jsFresh = await row('javascript child per submission', 1, async () => {
      const session = pools.javascriptPerSubmission.session()
      try {
        return await judge(session.run, 'javascript')
      } finally {
        session.end()
      }
    })
    lines.push(
      `| javascript | 1 | a child per submission, 1 process | ${fixed(jsFresh.perSecond)} | ${fixed(jsFresh.p95Ms, 0)} | ${fixed(jsFresh.cpuMsPerSubmission)} | — |`,
    )

    console.log(
      `\nCode sandbox: ${tests.length}-test FizzBuzz submissions, ${durationS} s per row after a ${WARM_UP_S} s warm-up, ${cores} cores, Node ${process.version}\n`,
    )
    console.log(
      '| language | learners at once | engine | submissions/s | p95 ms | CPU ms per submission | ratio to direct |',
    )
    console.log('|---|---|---|---|---|---|---|')
    for (const line of lines) console.log(line)
    console.log(
      `\nratio (goal ≥ 0.8): ${ratios.join('; ')}` +
        `\nfirst Python submission (memory snapshot made, then a child started from it): ${fixed(coldPyMs, 0)} ms` +
        `\nmemory held by the one-child sandbox's children at most: JavaScript ${mb(memory.javascript)} MB, Python ${mb(memory.python)} MB with its spare (engine memory + JavaScript heap)`,
    )
  } finally {
    await Promise.all([
      sandbox.close(),
      wide.close(),
      pools.pythonPerRun.close(),
      pools.javascriptPerSubmission.close(),
    ])
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
  let phases = 0
  /** The fifth learner's submissions, one after another: their latencies. */
  const learnerLatencies = async (sandbox: CodeSandbox) => {
    const latencies: number[] = []
    // A learner of their own each phase: nine submissions a phase, as a person might in a
    // minute or two, stay within one share; the phases come quicker than a person would.
    const learner = `learner-${phases++}`
    for (let index = 0; index < 9; index++) {
      const { verdict, ms } = await submit(sandbox, learner, programs.python)
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
