import { createHash } from 'node:crypto'
import {
  allPassed,
  type CodeLanguage,
  type CodeRunner,
  type CodeTest,
  MEMORY_LIMIT_BYTES,
  runTests,
  type TestOutcome,
} from '#features/exercises/code-run.ts'
import { createWorkerPool, type PoolOptions, type PoolStats } from '#server/code-sandbox/pool.ts'
import { type CodeSandboxSettings, defaultSandboxSettings } from '#server/code-sandbox/settings.ts'

export { MEMORY_LIMIT_BYTES }

/** Past a run's time limit, how long before its worker is terminated instead (pool.ts). */
const GRACE_MS = 1_000
/** Verdicts kept, by the bytes of output they hold. */
const CACHE_MAX_BYTES = 16 * 1024 * 1024

/** Each language's worker: its module, and the limits of its thread. */
export const ENGINES = {
  javascript: {
    workerUrl: new URL('./quickjs-worker.ts', import.meta.url),
    interrupts: false,
    // The engine's heap is WebAssembly memory, outside these; deep recursion needs the stack.
    resourceLimits: { maxOldGenerationSizeMb: 64, stackSizeMb: 16 },
  },
  python: {
    workerUrl: new URL('./pyodide-worker.ts', import.meta.url),
    interrupts: true,
    resourceLimits: { maxOldGenerationSizeMb: 128, stackSizeMb: 16 },
  },
} satisfies Record<CodeLanguage, Pick<PoolOptions, 'workerUrl' | 'interrupts' | 'resourceLimits'>>

export type Verdict = { outcomes: TestOutcome[]; passed: boolean; cached: boolean }

export type CodeSandboxStats = Record<CodeLanguage, PoolStats> & {
  cache: { entries: number; bytes: number; hits: number; misses: number }
}

/**
 * The server's code runners (decision 033): JavaScript in QuickJS (WebAssembly) and Python in
 * Pyodide, each on a small pool of worker threads started on first use. `run` is a CodeRunner
 * like the browser's; `verify` runs a question's tests through it and remembers the verdict by
 * (question revision, SHA-256 of the code), so the same submission is judged once.
 */
export function createCodeSandbox(settings: CodeSandboxSettings = defaultSandboxSettings()) {
  const common = {
    maxQueued: settings.maxQueued,
    maxWaitMs: settings.maxWaitMs,
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
  const run: CodeRunner = (request) => pools[request.language].run(request)

  const verdicts = new Map<string, { outcomes: TestOutcome[]; bytes: number }>()
  const underWay = new Map<string, Promise<TestOutcome[]>>()
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
     * runner) are not kept.
     */
    async verify(
      questionKey: string,
      request: { language: CodeLanguage; code: string; timeLimitMs: number },
      tests: readonly CodeTest[],
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
      let judging = underWay.get(key)
      if (!judging) {
        cache.misses++
        // One time limit per looping submission, not one per test (code-run.ts).
        judging = runTests(run, request, tests, { stopAfterTimeout: true }).finally(() =>
          underWay.delete(key),
        )
        underWay.set(key, judging)
      }
      const outcomes = await judging
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
