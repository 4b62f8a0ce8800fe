import { rmSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import { batchPerTurn } from '#server/storage/backends/indexed/batch-per-turn.ts'
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

/**
 * What becomes of content files no longer needed, done on a thread of its own in batches:
 * every retirement asked for in one turn of the event loop goes in one message (replaced and
 * deleted content goes in rounds, see durable-removals.ts): through the thread pool an unlink
 * costs several times its own CPU in wake-ups. And creating a file costs more than reusing
 * one: ext4 without a journal searches past every recently freed inode for a new one. So up to
 * `maxSpares` retired files are kept under spare names for the next writes to truncate and
 * fill; the caller retires only files nobody has open (content-files.ts), so no reader ever
 * sees a spare's new bytes. The measurements: decision 010, "Performance".
 */
export function createFileRecycler(options: {
  maxSpares: number
  spareName: () => string
}): FileRecycler {
  let worker: Worker | undefined
  const sent = new Map<number, (report: RetirementReport | Error) => void>()
  let nextBatch = 0
  const underWay = new Set<Promise<void>>()
  const spares: string[] = []
  let sparesAsked = 0

  const answer = (batch: number, report: RetirementReport | Error) => {
    sent.get(batch)?.(report)
    sent.delete(batch)
  }

  const start = () => {
    const started = new Worker(new URL('./file-recycler-worker.ts', import.meta.url))
    // Retirements never keep the process alive; close() waits for those under way.
    started.unref()
    started.on('message', (report: RetirementReport) => answer(report.batch, report))
    const failAll = (error: Error) => {
      worker = undefined
      for (const batch of [...sent.keys()]) answer(batch, error)
    }
    started.on('error', failAll)
    started.on('exit', (code) => failAll(new Error(`The file recycler stopped (code ${code})`)))
    return started
  }

  const retireBatch = batchPerTurn(async (files: Retirement[]) => {
    const batch = nextBatch++
    worker ??= start()
    const thread = worker
    const report = await new Promise<RetirementReport | Error>((resolve) => {
      sent.set(batch, resolve)
      thread.postMessage({ batch, files } satisfies RetirementBatch)
    })
    sparesAsked -= files.filter((file) => file.spareAs).length
    if (report instanceof Error) throw report
    spares.push(...report.spares)
    const failed = new Map(report.failures.map((failure) => [failure.path, failure.message]))
    const failures = new Map<Retirement, Error>()
    for (const file of files) {
      const message = failed.get(file.path)
      if (message !== undefined) failures.set(file, new Error(message))
    }
    return failures
  })

  return {
    retire(path) {
      const keep = spares.length + sparesAsked < options.maxSpares
      if (keep) sparesAsked++
      const retired = retireBatch(keep ? { path, spareAs: options.spareName() } : { path })
      underWay.add(retired)
      const done = () => void underWay.delete(retired)
      retired.then(done, done)
      return retired
    },
    takeSpare: () => spares.pop(),
    async close() {
      await Promise.allSettled(underWay)
      const stopping = worker
      worker = undefined
      stopping?.removeAllListeners('exit')
      await stopping?.terminate()
      for (const spare of spares.splice(0)) rmSync(spare, { force: true })
    },
  }
}
