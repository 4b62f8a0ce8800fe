import { Worker } from 'node:worker_threads'
import { batchPerTurn } from '#server/storage/backends/indexed/batch-per-turn.ts'
import type { RemovalBatch, RemovalReport } from './file-remover-worker.ts'

export type FileRemover = {
  /** Unlinks the file. A file already gone is not an error. */
  remove(path: string): Promise<void>
  /** Waits for the removals under way and stops the thread. */
  close(): Promise<void>
}

/**
 * Removes content files no longer needed on a thread of its own, in batches: every removal
 * asked for in one turn of the event loop goes in one message (replaced and deleted content
 * goes in rounds, see durable-removals.ts). Through the thread pool each unlink costs several
 * times its own CPU in wake-ups, and a round of them queues ahead of the writes' flushes. The
 * measurements: decisions 010 and 041.
 */
export function createFileRemover(): FileRemover {
  let worker: Worker | undefined
  const sent = new Map<number, (report: RemovalReport | Error) => void>()
  let nextBatch = 0
  const underWay = new Set<Promise<void>>()

  const answer = (batch: number, report: RemovalReport | Error) => {
    sent.get(batch)?.(report)
    sent.delete(batch)
  }

  const start = () => {
    const started = new Worker(new URL('./file-remover-worker.ts', import.meta.url))
    // Removals never keep the process alive; close() waits for those under way.
    started.unref()
    started.on('message', (report: RemovalReport) => answer(report.batch, report))
    const failAll = (error: Error) => {
      worker = undefined
      for (const batch of [...sent.keys()]) answer(batch, error)
    }
    started.on('error', failAll)
    started.on('exit', (code) => failAll(new Error(`The file remover stopped (code ${code})`)))
    return started
  }

  const removeBatch = batchPerTurn(async (paths: string[]) => {
    const batch = nextBatch++
    worker ??= start()
    const thread = worker
    const report = await new Promise<RemovalReport | Error>((resolve) => {
      sent.set(batch, resolve)
      thread.postMessage({ batch, paths } satisfies RemovalBatch)
    })
    if (report instanceof Error) throw report
    return new Map(report.failures.map((failure) => [failure.path, new Error(failure.message)]))
  })

  return {
    remove(path) {
      const removed = removeBatch(path)
      underWay.add(removed)
      const done = () => void underWay.delete(removed)
      removed.then(done, done)
      return removed
    },
    async close() {
      await Promise.allSettled(underWay)
      const stopping = worker
      worker = undefined
      stopping?.removeAllListeners('exit')
      await stopping?.terminate()
    },
  }
}
