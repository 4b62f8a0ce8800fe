// What a runner Worker and the page say to each other (browser-runner.ts ↔ *.worker.ts). The
// page treats everything a worker says as untrusted data: code that is not the learner's runs
// in it, and could post anything it can reach (docs/decisions/032).

import { MAX_OUTPUT_BYTES } from '#features/exercises/code-run.ts'

export type OutputStream = 'stdout' | 'stderr'

/** Page → worker: one run (a JavaScript worker takes one; the Python worker many, in turn). */
export type RunMessage = { type: 'run'; code: string; stdin: string }

/** How long the worker took to be ready, and the bytes it loaded over the network. */
export type ReadyStats = { loadMs: number; transferBytes: number }

export type WorkerMessage =
  | { type: 'progress'; loaded: number; total: number }
  | { type: 'ready'; stats: ReadyStats }
  | { type: 'failed'; reason: string }
  | { type: 'started' }
  | { type: 'output'; stream: OutputStream; text: string }
  | {
      type: 'done'
      outcome: 'completed' | 'error'
      durationMs: number
      error?: { message: string; line?: number }
      /** The worker is to be replaced before the next run. */
      replace?: boolean
    }

const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0

const MAX_MESSAGE_TEXT = MAX_OUTPUT_BYTES + 1

const isText = (value: unknown, max = MAX_MESSAGE_TEXT): value is string =>
  typeof value === 'string' && value.length <= max

/** A worker's message if it has one of the shapes above, else undefined (ignored). */
export function parseWorkerMessage(data: unknown): WorkerMessage | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const message = data as Record<string, unknown>
  switch (message.type) {
    case 'progress':
      return isNumber(message.loaded) && isNumber(message.total)
        ? { type: 'progress', loaded: message.loaded, total: message.total }
        : undefined
    case 'ready': {
      const stats = message.stats as Record<string, unknown> | undefined
      return stats && isNumber(stats.loadMs) && isNumber(stats.transferBytes)
        ? { type: 'ready', stats: { loadMs: stats.loadMs, transferBytes: stats.transferBytes } }
        : undefined
    }
    case 'failed':
      return isText(message.reason, 2000) ? { type: 'failed', reason: message.reason } : undefined
    case 'started':
      return { type: 'started' }
    case 'output':
      return (message.stream === 'stdout' || message.stream === 'stderr') && isText(message.text)
        ? { type: 'output', stream: message.stream, text: message.text }
        : undefined
    case 'done': {
      if (message.outcome !== 'completed' && message.outcome !== 'error') return undefined
      if (!isNumber(message.durationMs)) return undefined
      const error = message.error as Record<string, unknown> | undefined
      if (message.outcome === 'error') {
        if (!error || !isText(error.message, 20_000)) return undefined
        const line = isNumber(error.line) ? Math.trunc(error.line) : undefined
        return {
          type: 'done',
          outcome: 'error',
          durationMs: message.durationMs,
          error: { message: error.message, ...(line && { line }) },
          ...(message.replace === true && { replace: true }),
        }
      }
      return { type: 'done', outcome: 'completed', durationMs: message.durationMs }
    }
    default:
      return undefined
  }
}
