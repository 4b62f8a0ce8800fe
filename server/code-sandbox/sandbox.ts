import { createHash } from 'node:crypto'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  allPassed,
  type CodeLanguage,
  type CodeRunRequest,
  type CodeTest,
  MEMORY_LIMIT_BYTES,
  runTests,
  type TestOutcome,
} from '#features/exercises/code-run.ts'
import {
  createWorkerPool,
  type PoolOptions,
  type PoolStats,
  type RunOptions,
} from '#server/code-sandbox/pool.ts'
import {
  type CodeSandboxSettings,
  DEFAULT_QUEUED_PER_LEARNER,
  DEFAULT_RUN_SECONDS_PER_LEARNER_PER_MINUTE,
  defaultSandboxSettings,
} from '#server/code-sandbox/settings.ts'

export { MEMORY_LIMIT_BYTES }

/** Past a run's time limit, how long before its child is killed instead (pool.ts). */
const GRACE_MS = 1_000
/** Verdicts kept, by the bytes of output they hold. */
const CACHE_MAX_BYTES = 16 * 1024 * 1024

const own = (relative: string) => fileURLToPath(new URL(relative, import.meta.url))
/** An installed package's folder (not every package exports its package.json). */
const packageFolder = (name: string) => {
  const entry = fileURLToPath(import.meta.resolve(name))
  const folder = `${path.sep}node_modules${path.sep}${name}${path.sep}`
  return entry.slice(0, entry.lastIndexOf(folder) + folder.length)
}

/**
 * What every child may read: the project's import map and the modules it loads (pure ones,
 * shared with the browser, and the sandbox's own), nothing else of the project.
 */
const SANDBOX_FILES = [
  own('../../package.json'),
  own('../../features/exercises/code-run.ts'),
  own('../../features/exercises/console-format.ts'),
  own('./child.ts'),
]

/** Each language's child: its module, what it may read, and its heap and stack. */
export const ENGINES = {
  javascript: {
    workerUrl: new URL('./quickjs-worker.ts', import.meta.url),
    readable: [
      ...SANDBOX_FILES,
      own('./quickjs-worker.ts'),
      own('./quickjs-runner.ts'),
      own('./output.ts'),
      packageFolder('quickjs-emscripten-core'),
      packageFolder('@jitl/quickjs-wasmfile-release-sync'),
      packageFolder('@jitl/quickjs-ffi-types'),
    ],
    // The engine's heap is WebAssembly memory, outside these; deep recursion needs the stack.
    nodeOptions: ['--max-old-space-size=64', '--stack-size=4000'],
    snapshot: false,
    childPerSubmission: false,
  },
  python: {
    workerUrl: new URL('./pyodide-worker.ts', import.meta.url),
    readable: [
      ...SANDBOX_FILES,
      own('./pyodide-worker.ts'),
      own('./pyodide-runner.ts'),
      own('./runner.py'),
      packageFolder('pyodide'),
    ],
    nodeOptions: ['--max-old-space-size=128', '--stack-size=4000'],
    snapshot: true,
    childPerSubmission: true,
  },
} satisfies Record<
  CodeLanguage,
  Pick<PoolOptions, 'workerUrl' | 'readable' | 'nodeOptions' | 'snapshot' | 'childPerSubmission'>
>

export type Verdict = { outcomes: TestOutcome[]; passed: boolean; cached: boolean }

const overShare = ({ run }: TestOutcome) =>
  run.outcome === 'unavailable' && run.retryAfterMs !== undefined

export type CodeSandboxStats = Record<CodeLanguage, PoolStats> & {
  cache: { entries: number; bytes: number; hits: number; misses: number }
}

/**
 * The server's code runners (decision 033): JavaScript in QuickJS (WebAssembly) and Python in
 * Pyodide, each on a small pool of child processes started on first use. `run` is a CodeRunner
 * like the browser's; `verify` runs a question's tests through it and remembers the verdict by
 * (question revision, SHA-256 of the code), so the same submission is judged once.
 */
export function createCodeSandbox(settings: CodeSandboxSettings = defaultSandboxSettings()) {
  // Long by design: a factory whose returned methods share its private state; each method is short.
  const common = {
    maxQueued: settings.maxQueued,
    maxWaitMs: settings.maxWaitMs,
    runMsPerLearnerPerMinute:
      (settings.runSecondsPerLearnerPerMinute ?? DEFAULT_RUN_SECONDS_PER_LEARNER_PER_MINUTE) *
      1_000,
    queuedPerLearner: settings.queuedPerLearner ?? DEFAULT_QUEUED_PER_LEARNER,
    graceMs: GRACE_MS,
    memoryLimitBytes: MEMORY_LIMIT_BYTES,
  }
  const pools = {
    javascript: createWorkerPool({
      ...common,
      ...ENGINES.javascript,
      size: settings.javascriptWorkers,
    }),
    python: createWorkerPool({ ...common, ...ENGINES.python, size: settings.pythonWorkers }),
  }
  /** A CodeRunner; `learner` takes its turn and counts the run against their share. */
  const run = (request: CodeRunRequest, options: RunOptions = {}) =>
    pools[request.language].run(request, options)

  const verdicts = new Map<string, { outcomes: TestOutcome[]; bytes: number }>()
  const underWay = new Map<
    string,
    { learner: string | undefined; judging: Promise<TestOutcome[]> }
  >()
  const cache = { bytes: 0, hits: 0, misses: 0 }
  const remember = (key: string, outcomes: TestOutcome[]) => {
    const bytes = outcomes.reduce(
      (sum, { run }) => sum + run.stdout.length + run.stderr.length + 200,
      key.length,
    )
    verdicts.set(key, { outcomes, bytes })
    cache.bytes += bytes
    // Oldest first (a Map keeps insertion order; a hit moves its entry to the end).
    for (const [oldKey, entry] of verdicts) {
      if (cache.bytes <= CACHE_MAX_BYTES) break
      verdicts.delete(oldKey)
      cache.bytes -= entry.bytes
    }
  }

  return {
    run,
    /**
     * Judges `code` against `tests` (all of them, hidden ones included). `questionKey` names the
     * question's revision (its id and revision): a verdict is reused only for the same tests,
     * time limit and code. Verdicts that depend on the moment (a timeout, an unavailable
     * runner) are not kept. The runs count against `learner`'s share (pool.ts).
     */
    async verify(
      questionKey: string,
      request: { language: CodeLanguage; code: string; timeLimitMs: number },
      tests: readonly CodeTest[],
      options: RunOptions = {},
    ): Promise<Verdict> {
      const codeHash = createHash('sha256').update(request.code).digest('hex')
      const key = `${questionKey}\n${request.language}\n${codeHash}`
      const known = verdicts.get(key)
      if (known) {
        cache.hits++
        verdicts.delete(key)
        verdicts.set(key, known)
        return { outcomes: known.outcomes, passed: allPassed(known.outcomes, tests), cached: true }
      }
      const judge = () => {
        cache.misses++
        // One time limit per looping submission, not one per test (code-run.ts). All its tests
        // on one child, which no other submission gets (pool.ts).
        const session = pools[request.language].session(options)
        const judging = runTests(session.run, request, tests, {
          stopAfterTimeout: true,
        }).finally(() => {
          session.end()
          if (underWay.get(key)?.judging === judging) underWay.delete(key)
        })
        underWay.set(key, { learner: options.learner, judging })
        return judging
      }
      const shared = underWay.get(key)
      let outcomes = await (shared?.judging ?? judge())
      // Another learner's run of the same code, refused as over their share, is not ours.
      if (shared && shared.learner !== options.learner && outcomes.some(overShare)) {
        outcomes = await judge()
      }
      const momentary = outcomes.some(
        ({ run }) => run.outcome === 'timeout' || run.outcome === 'unavailable',
      )
      if (!momentary && !verdicts.has(key)) remember(key, outcomes)
      return { outcomes, passed: allPassed(outcomes, tests), cached: false }
    },
    /**
     * Loads a language's engine ahead of the first run (a Python worker takes seconds): for a
     * page about to offer code questions of that language.
     */
    warm(language: CodeLanguage) {
      pools[language].warm()
    },
    stats(): CodeSandboxStats {
      return {
        javascript: pools.javascript.stats(),
        python: pools.python.stats(),
        cache: { entries: verdicts.size, ...cache },
      }
    },
    async close() {
      await Promise.all([pools.javascript.close(), pools.python.close()])
    },
  }
}

export type CodeSandbox = ReturnType<typeof createCodeSandbox>
