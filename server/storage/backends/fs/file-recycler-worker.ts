/**
 * The file recycler's thread (file-recycler.ts). For each file of a batch it either unlinks it,
 * or moves it to a spare's name and empties it for a later write to fill. Answers once per
 * batch: the files it could not retire, and the spares it made. A file already gone counts as
 * retired, and becomes no spare. It opens no file: a worker's descriptors are closed when it
 * stops.
 */
import { renameSync, truncateSync, unlinkSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'

export type Retirement = { path: string; spareAs?: string }
export type RetirementBatch = { batch: number; files: Retirement[] }
export type RetirementReport = {
  batch: number
  failures: Array<{ path: string; message: string }>
  spares: string[]
}

const gone = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT'

function retire({ path, spareAs }: Retirement): string | undefined {
  if (spareAs === undefined) {
    unlinkSync(path)
    return undefined
  }
  renameSync(path, spareAs)
  // Emptied now: a spare holds no disk space while it waits.
  truncateSync(spareAs)
  return spareAs
}

parentPort?.on('message', ({ batch, files }: RetirementBatch) => {
  const report: RetirementReport = { batch, failures: [], spares: [] }
  for (const file of files) {
    try {
      const spare = retire(file)
      if (spare) report.spares.push(spare)
    } catch (error) {
      if (!gone(error)) report.failures.push({ path: file.path, message: (error as Error).message })
    }
  }
  parentPort?.postMessage(report)
})
