import { availableParallelism } from 'node:os'

export type CodeSandboxSettings = {
  /** QuickJS child processes (CODE_SANDBOX_JS_WORKERS). */
  javascriptWorkers: number
  /** Pyodide child processes running at once (CODE_SANDBOX_PYTHON_WORKERS), one more starting. */
  pythonWorkers: number
  /** Runs waiting per language before the next is answered 'unavailable' (CODE_SANDBOX_QUEUE). */
  maxQueued: number
  /** Longest a run waits for a worker, a cold Pyodide start included (CODE_SANDBOX_WAIT_MS). */
  maxWaitMs: number
}

/** One worker per language up to 7 cores (a 2-core machine shares them with the site), then one per 4. */
export function sandboxWorkers(cores = availableParallelism()): number {
  return Math.max(1, Math.floor(cores / 4))
}

export const DEFAULT_SANDBOX_QUEUE = 32
export const DEFAULT_SANDBOX_WAIT_MS = 20_000

export function defaultSandboxSettings(): CodeSandboxSettings {
  const workers = sandboxWorkers()
  return {
    javascriptWorkers: workers,
    pythonWorkers: workers,
    maxQueued: DEFAULT_SANDBOX_QUEUE,
    maxWaitMs: DEFAULT_SANDBOX_WAIT_MS,
  }
}
