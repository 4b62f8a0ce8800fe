import { availableParallelism, totalmem } from 'node:os'

export type CodeSandboxSettings = {
  /** QuickJS child processes (CODE_SANDBOX_JS_WORKERS). */
  javascriptWorkers: number
  /** Pyodide child processes running at once (CODE_SANDBOX_PYTHON_WORKERS), one more starting. */
  pythonWorkers: number
  /** Runs waiting per language, all learners together (CODE_SANDBOX_QUEUE). */
  maxQueued: number
  /** Longest a run waits for a worker, a cold Pyodide start included (CODE_SANDBOX_WAIT_MS). */
  maxWaitMs: number
  /** Run time per learner in a sliding minute (CODE_SANDBOX_RUN_SECONDS_PER_LEARNER_PER_MINUTE). */
  runSecondsPerLearnerPerMinute?: number
  /** Runs one learner may have waiting per language (CODE_SANDBOX_QUEUED_PER_LEARNER). */
  queuedPerLearner?: number
}

/** What one worker may hold at most: its engine and a run's heap (decision 045). */
const WORKER_FOOTPRINT_BYTES = 200 * 1024 * 1024

/**
 * Workers per language: one per core but one (left to the site), and no more than a quarter of
 * the machine's memory holds at their fullest; at least one.
 */
export function sandboxWorkers(cores = availableParallelism(), memoryBytes = totalmem()): number {
  const byMemory = Math.floor(memoryBytes / 4 / WORKER_FOOTPRINT_BYTES)
  return Math.max(1, Math.min(cores - 1, byMemory))
}

export const DEFAULT_SANDBOX_QUEUE = 32
export const DEFAULT_SANDBOX_WAIT_MS = 20_000
export const DEFAULT_RUN_SECONDS_PER_LEARNER_PER_MINUTE = 10
export const DEFAULT_QUEUED_PER_LEARNER = 4

export function defaultSandboxSettings(): CodeSandboxSettings {
  const workers = sandboxWorkers()
  return {
    javascriptWorkers: workers,
    pythonWorkers: workers,
    maxQueued: DEFAULT_SANDBOX_QUEUE,
    maxWaitMs: DEFAULT_SANDBOX_WAIT_MS,
    runSecondsPerLearnerPerMinute: DEFAULT_RUN_SECONDS_PER_LEARNER_PER_MINUTE,
    queuedPerLearner: DEFAULT_QUEUED_PER_LEARNER,
  }
}
