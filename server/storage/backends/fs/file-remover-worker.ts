/**
 * The file remover's thread (file-remover.ts): unlinks a batch of files and answers once per
 * batch with the ones it could not remove. A file already gone counts as removed. It opens no
 * file: a worker's descriptors are closed when it stops.
 */
import { unlinkSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'

export type RemovalBatch = { batch: number; paths: string[] }
export type RemovalReport = { batch: number; failures: Array<{ path: string; message: string }> }

parentPort?.on('message', ({ batch, paths }: RemovalBatch) => {
  const report: RemovalReport = { batch, failures: [] }
  for (const path of paths) {
    try {
      unlinkSync(path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        report.failures.push({ path, message: (error as Error).message })
      }
    }
  }
  parentPort?.postMessage(report)
})
