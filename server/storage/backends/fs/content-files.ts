import { createHash, randomBytes } from 'node:crypto'
import { type FileHandle, mkdir, open, readdir, rename, rm } from 'node:fs/promises'
import path from 'node:path'

/**
 * The bytes of objects and parts, one file each, named by a fresh random id and never by the
 * key, so a key can hold `..`, slashes or 1024 bytes without being a path. A file is written
 * under `tmp/`, flushed, and renamed into `content/` only once complete; a file in `content/`
 * counts only once an index row names it (the index's transaction is the commit point).
 */
export type ContentFiles = {
  /** Streams the source into a new content file. On any error nothing is left behind. */
  write(source: AsyncIterable<Uint8Array>): Promise<WrittenFile>
  open(fileId: string): Promise<FileHandle>
  /** Removes a content file; a missing one is not an error (it may already be gone). */
  remove(fileId: string): Promise<void>
  /** Start-up only: deletes every temporary file and every content file not in `referenced`. */
  removeLeftovers(referenced: ReadonlySet<string>): Promise<number>
}

export type WrittenFile = { fileId: string; size: number; md5: Buffer }

const FILE_ID = /^[0-9a-f]{32}$/
const TEMPORARY = /^[0-9a-f]{32}\.tmp$/

export async function openContentFiles(
  directory: string,
  options: { fsync: boolean },
): Promise<ContentFiles> {
  const contentDir = path.join(directory, 'content')
  const tmpDir = path.join(directory, 'tmp')
  await mkdir(contentDir, { recursive: true })
  await mkdir(tmpDir, { recursive: true })
  if (options.fsync) await syncDirectory(directory)
  const contentPath = (fileId: string) => {
    if (!FILE_ID.test(fileId)) throw new Error(`Not a content file id: ${fileId}`)
    return path.join(contentDir, fileId)
  }

  return {
    async write(source) {
      const fileId = randomBytes(16).toString('hex')
      const tmpPath = path.join(tmpDir, `${fileId}.tmp`)
      const md5 = createHash('md5')
      let size = 0
      const file = await open(tmpPath, 'wx')
      try {
        try {
          for await (const chunk of source) {
            md5.update(chunk)
            size += chunk.byteLength
            await writeAll(file, chunk)
          }
          if (options.fsync) await file.sync()
        } finally {
          await file.close()
        }
        await rename(tmpPath, contentPath(fileId))
      } catch (error) {
        await rm(tmpPath, { force: true })
        throw error
      }
      // The rename is durable only once the directory entry is.
      if (options.fsync) await syncDirectory(contentDir)
      return { fileId, size, md5: md5.digest() }
    },
    open: (fileId) => open(contentPath(fileId), 'r'),
    async remove(fileId) {
      await rm(contentPath(fileId), { force: true })
    },
    async removeLeftovers(referenced) {
      const leftovers = await listLeftovers(directory, referenced)
      for (const leftover of leftovers) await rm(path.join(directory, leftover), { force: true })
      return leftovers.length
    },
  }
}

/**
 * Paths (relative to the store's directory) of the store's temporary files and of its content
 * files that `referenced` does not name. Files with other names are not the store's.
 */
export async function listLeftovers(
  directory: string,
  referenced: ReadonlySet<string>,
): Promise<string[]> {
  const temporary = (await readdir(path.join(directory, 'tmp')))
    .filter((name) => TEMPORARY.test(name))
    .map((name) => path.join('tmp', name))
  const unreferenced = (await readdir(path.join(directory, 'content')))
    .filter((name) => FILE_ID.test(name) && !referenced.has(name))
    .map((name) => path.join('content', name))
  return [...temporary, ...unreferenced]
}

async function writeAll(file: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await file.write(chunk, offset, chunk.byteLength - offset)
    offset += bytesWritten
  }
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
