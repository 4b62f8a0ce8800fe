import type { CodeRunRequest, CodeRunResult } from '#features/exercises/code-run.ts'

/**
 * What the pool sends a child process: one run; `fresh` when it is the first (or only) run of a
 * submission, which no engine state of an earlier submission may meet.
 */
export type RunMessage = { id: number; request: CodeRunRequest; fresh: boolean }

/**
 * What a child sends back: 'ready' once its engine has loaded (or why it could not), then one
 * reply per run with the memory it holds (engine heap + JavaScript heap) for the pool's stats.
 * A child started to make the Python memory snapshot answers the snapshot instead.
 */
export type WorkerMessage =
  /** `startCpuMs`: the CPU time the child took to start (a child per submission: its cost). */
  | { kind: 'ready'; memoryBytes: number; startCpuMs: number }
  | { kind: 'failed'; reason: string }
  | { kind: 'snapshot'; bytes: Uint8Array }
  | {
      kind: 'result'
      id: number
      result: CodeRunResult
      memoryBytes: number
      /** The run changed what could not be put back: the child is not to run anything more. */
      replace?: boolean
    }

/**
 * What a child starts with (JSON, its only command-line argument). `snapshot` (Python only): the
 * file of the memory snapshot to start from, or 'make' to make it and send it back, and `seed`
 * the random generator's seed (hex) for this child.
 */
export type WorkerStart = { memoryLimitBytes: number; snapshot?: string; seed?: string }
