import { rmSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import type { Retirement, RetirementBatch, RetirementReport } from './file-recycler-worker.ts'

export type FileRecycler = {
  /**
   * Takes the file away from its path: kept as a spare while there is room for one, unlinked
   * otherwise. A file already gone is not an error.
   */
  retire(path: string): Promise<void>
  /**
   * The path (from `spareName`) of a retired file that nobody has open, to be opened truncated
   * and filled: the caller owns it from now on. Undefined when there is none ready.
   */
  takeSpare(): string | undefined
  /** Waits for the retirements under way, removes the spares and stops the thread. */
  close(): Promise<void>
}

type Waiter = { retirement: Retirement; resolve: () => void; reject: (error: Error) => void }

/**
 * What becomes of content files no longer needed, done on a thread of its own in batches:
 * every retirement asked for in one turn of the event loop goes in one message (replaced and
 * deleted content goes in rounds, see durable-removals.ts). Through the thread pool, each
 * unlink cost about 34 µs of CPU for a 5 µs call (measured here). And creating a file costs
 * more than reusing one: on ext4 without a journal, as here, a new inode is searched for past
 * every inode freed in the last 30 s, a quarter of a 4 KiB PUT's server CPU when objects are
 * replaced at a thousand a second. So up to `maxSpares` retired files are kept under spare
 * names for the next writes to truncate and fill; the caller retires only files nobody has
 * open (content-files.ts), so no reader ever sees a spare's new bytes.
 */
export function createFileRecycler(options: {
  maxSpares: number
  spareName: () => string
}): FileRecycler {
  let worker: Worker | undefined
  let gathering: Waiter[] | undefined
  const sent = new Map<number, Waiter[]>()
  let nextBatch = 0
  let idle: (() => void) | undefined
  const spares: string[] = []
  let sparesAsked = 0

  const settleBatch = (waiters: Waiter[], report: RetirementReport | Error) => {
    sparesAsked -= waiters.filter((waiter) => waiter.retirement.spareAs).length
    if (report instanceof Error) {
      for (const waiter of waiters) waiter.reject(report)
      return
    }
    spares.push(...report.spares)
    const failed = new Map(report.failures.map((failure) => [failure.path, failure.message]))
    for (const waiter of waiters) {
      const message = failed.get(waiter.retirement.path)
      if (message === undefined) waiter.resolve()
      else waiter.reject(new Error(message))
    }
  }

  const failAll = (error: Error) => {
    for (const waiters of sent.values()) settleBatch(waiters, error)
    sent.clear()
    worker = undefined
    idle?.()
  }

  const start = () => {
    const started = new Worker(new URL('./file-recycler-worker.ts', import.meta.url))
    // Retirements never keep the process alive; close() waits for those under way.
    started.unref()
    started.on('message', (report: RetirementReport) => {
      const waiters = sent.get(report.batch) ?? []
      sent.delete(report.batch)
      settleBatch(waiters, report)
      if (sent.size === 0) idle?.()
    })
    started.on('error', failAll)
    started.on('exit', (code) => failAll(new Error(`The file recycler stopped (code ${code})`)))
    return started
  }

  const send = () => {
    const waiters = gathering ?? []
    gathering = undefined
    const batch = nextBatch++
    sent.set(batch, waiters)
    worker ??= start()
    const files = waiters.map((waiter) => waiter.retirement)
    worker.postMessage({ batch, files } satisfies RetirementBatch)
  }

  return {
    retire(path) {
      return new Promise((resolve, reject) => {
        const keep = spares.length + sparesAsked < options.maxSpares
        if (keep) sparesAsked++
        const retirement = keep ? { path, spareAs: options.spareName() } : { path }
        if (!gathering) {
          gathering = []
          queueMicrotask(send)
        }
        gathering.push({ retirement, resolve, reject })
      })
    },
    takeSpare: () => spares.pop(),
    async close() {
      if (sent.size > 0 || gathering) {
        await new Promise<void>((resolve) => {
          idle = resolve
        })
      }
      const stopping = worker
      worker = undefined
      stopping?.removeAllListeners('exit')
      await stopping?.terminate()
      for (const spare of spares.splice(0)) rmSync(spare, { force: true })
    },
  }
}
