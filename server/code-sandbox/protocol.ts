import type { CodeRunRequest, CodeRunResult } from '#features/exercises/code-run.ts'

/** What the pool sends a worker: one run. */
export type RunMessage = { id: number; request: CodeRunRequest }

/**
 * What a worker sends back: 'ready' once its engine has loaded (or why it could not), then one
 * reply per run with the memory it holds (engine heap + JavaScript heap) for the pool's stats.
 */
export type WorkerMessage =
  | { kind: 'ready'; memoryBytes: number }
  | { kind: 'failed'; reason: string }
  | {
      kind: 'result'
      id: number
      result: CodeRunResult
      memoryBytes: number
      /** The run changed what could not be put back: the worker is to be replaced. */
      replace?: boolean
    }

/**
 * Data a worker starts with. `interrupt` (Python only) is shared with the pool: the pool writes
 * 2 (SIGINT) at a run's time limit and Pyodide raises KeyboardInterrupt in the learner's code.
 */
export type WorkerStart = { interrupt?: SharedArrayBuffer; memoryLimitBytes: number }
