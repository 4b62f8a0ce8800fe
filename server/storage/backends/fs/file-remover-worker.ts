/**
 * The file remover's thread (file-remover.ts): unlinks each batch of paths it is sent with
 * synchronous calls and answers, per batch, the paths it could not remove and why. A path
 * already gone counts as removed.
 */
import { unlinkSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'

export type RemovalBatch = { batch: number; paths: string[] }
export type RemovalReport = { batch: number; failures: Array<{ path: string; message: string }> }

parentPort?.on('message', ({ batch, paths }: RemovalBatch) => {
  const failures: RemovalReport['failures'] = []
  for (const path of paths) {
    try {
      unlinkSync(path)
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException
      if (code !== 'ENOENT') failures.push({ path, message })
    }
  }
  parentPort?.postMessage({ batch, failures } satisfies RemovalReport)
})
