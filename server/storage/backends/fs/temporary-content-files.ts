import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import type { ContentStore } from '#server/storage/backends/indexed/content-store.ts'
import { openContentFiles } from './content-files.ts'

/** For tests: content files in a fresh temporary directory, without flushes. */
export async function openTemporaryContentFiles() {
  const directory = await mkdtemp(path.join(tmpdir(), 'content-files-'))
  return {
    directory,
    files: await openContentFiles(directory, { fsync: false }),
    /** Whether the item's file is on disk. */
    exists: (id: string) => existsSync(path.join(directory, 'content', id)),
    remove: () => rm(directory, { recursive: true, force: true }),
  }
}

/** Writes `text` as a new item of `store`; answers its id. */
export const putText = async (store: ContentStore, text: string) =>
  (await store.write(Readable.from([Buffer.from(text)]))).fileId
