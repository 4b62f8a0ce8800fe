import { type Hash, randomBytes } from 'node:crypto'
import {
  closeSync,
  fdatasync,
  open as openWithCallback,
  renameSync,
  writeSync,
  writev,
} from 'node:fs'
import { mkdir, open, readdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import {
  type ContentStore,
  contentWriters,
} from '#server/storage/backends/indexed/content-store.ts'
import { FileRangeStream, ReadBuffers } from './file-range-stream.ts'
import { createFileRemover } from './file-remover.ts'
import { sharedFlushes } from './shared-flushes.ts'

const FILE_ID = /^[0-9a-f]{32}$/
const TEMPORARY = /^[0-9a-f]{32}\.tmp$/
// Empty files kept for reuse by versions before decision 041: start-up recovery removes them.
const SPARE = /^[0-9a-f]{32}\.spare$/
const WRITE_BATCH_BYTES = 1024 * 1024
// The last bytes of a body, up to this many, are written with synchronous calls (see write).
const SYNCHRONOUS_WRITE_BYTES = 64 * 1024
// Reads of up to 1 MiB: the 64 KiB default of file streams costs a thread pool round trip per
// 64 KiB. Up to 16 of those buffers are kept for reuse (16 MiB), enough for the GETs in flight.
const READ_CHUNK_BYTES = 1024 * 1024
const KEPT_READ_BUFFERS = 16

/**
 * Content on local disk: one file per object or part, named by its random id under `content/`.
 * A file is written under a temporary name in `tmp/` and renamed into `content/` only once
 * complete; then the file and that directory are flushed, and only then may an index row name
 * it. Both the bytes (with the size needed to read them back) and the directory entry must be
 * durable by then, in either order: a crash before that leaves a file no row names, which
 * recovery removes; flushing them together lets the file system write them in one go. Writes
 * finishing together share their directory flushes (`sharedFlushes`).
 *
 * Removed files are unlinked on a thread of their own (file-remover.ts). A reader's open
 * descriptor is its snapshot: unlinking the path leaves its bytes to it until it closes.
 */
export async function openContentFiles(
  directory: string,
  options: { fsync: boolean },
): Promise<ContentStore> {
  // Long by design: a factory whose returned methods share its private state; each method is short.
  const contentDir = path.join(directory, 'content')
  const tmpDir = path.join(directory, 'tmp')
  await mkdir(contentDir, { recursive: true })
  await mkdir(tmpDir, { recursive: true })
  if (options.fsync) await syncDirectory(directory)
  // Kept open for the store's life: opening and closing it for every flush cost two more
  // thread pool round trips per round of writes.
  const contentDirHandle = options.fsync ? await open(contentDir, 'r') : undefined
  const syncContentDir = sharedFlushes(async () => contentDirHandle?.sync())
  const readBuffers = new ReadBuffers(READ_CHUNK_BYTES, KEPT_READ_BUFFERS)
  const temporaryPath = () => path.join(tmpDir, `${randomBytes(16).toString('hex')}.tmp`)
  const remover = createFileRemover()
  const contentPath = (fileId: string) => {
    if (!FILE_ID.test(fileId)) throw new Error(`Not a content file id: ${fileId}`)
    return path.join(contentDir, fileId)
  }

  async function openTemporary(): Promise<TemporaryFile> {
    const at = temporaryPath()
    return { path: at, descriptor: await openDescriptor(at, 'wx') }
  }

  async function write(source: AsyncIterable<Uint8Array>, md5: Hash | undefined) {
    const fileId = randomBytes(16).toString('hex')
    let size = 0
    let file: TemporaryFile | undefined
    try {
      // Chunks are gathered and written together: one system call per MiB, not per chunk.
      let pending: Uint8Array[] = []
      let pendingBytes = 0
      for await (const chunk of source) {
        md5?.update(chunk)
        size += chunk.byteLength
        pending.push(chunk)
        pendingBytes += chunk.byteLength
        if (pendingBytes >= WRITE_BATCH_BYTES) {
          file ??= await openTemporary()
          await writeChunks(file.descriptor, pending)
          pending = []
          pendingBytes = 0
        }
      }
      file ??= await openTemporary()
      // What is left of a body, up to 64 KiB, is written with a synchronous call, and the file
      // renamed with one: each takes less than a thread pool round trip costs in wake-ups and
      // context switches. The flushes, which wait for the disk, stay on the pool; so does
      // creating a file, which can wait for it too (decision 010, "Performance").
      if (pendingBytes <= SYNCHRONOUS_WRITE_BYTES) writeChunksNow(file.descriptor, pending)
      else await writeChunks(file.descriptor, pending)
      renameSync(file.path, contentPath(fileId))
      if (options.fsync) await allSettledOrThrow([flush(file.descriptor), syncContentDir()])
    } catch (error) {
      const paths = [contentPath(fileId), ...(file ? [file.path] : [])]
      await Promise.all(paths.map((at) => rm(at, { force: true })))
      throw error
    } finally {
      if (file) closeSync(file.descriptor)
    }
    return { fileId, size }
  }

  return {
    ...contentWriters(write),
    async open(fileId, size) {
      const file = await open(contentPath(fileId), 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined
        throw error
      })
      if (!file) return undefined
      // The open descriptor is the snapshot: a removal unlinks the path, not these bytes.
      return {
        read: (range, released) =>
          new FileRangeStream(file, range ?? { start: 0, end: size - 1 }, readBuffers, released),
      }
    },
    remove: (fileId) => remover.remove(contentPath(fileId)),
    async removeLeftovers(referenced) {
      const leftovers = await listLeftovers(directory, referenced)
      for (const leftover of leftovers) await rm(path.join(directory, leftover), { force: true })
      return leftovers.length
    },
    async close() {
      await remover.close()
      await contentDirHandle?.close()
    },
  }
}

/** A file being written under a temporary name, and its open descriptor. */
type TemporaryFile = { path: string; descriptor: number }

/**
 * Paths (relative to the store's directory) of the store's temporary files and of its content
 * files that `referenced` does not name, and the empty spares (`tmp/*.spare`) that versions
 * before decision 041 kept for reuse. Files with other names are not the store's.
 */
export async function listLeftovers(
  directory: string,
  referenced: ReadonlySet<string>,
): Promise<string[]> {
  const temporary = (await readdir(path.join(directory, 'tmp')))
    .filter((name) => TEMPORARY.test(name) || SPARE.test(name))
    .map((name) => path.join('tmp', name))
  const unreferenced = (await readdir(path.join(directory, 'content')))
    .filter((name) => FILE_ID.test(name) && !referenced.has(name))
    .map((name) => path.join('content', name))
  return [...temporary, ...unreferenced]
}

// Plain descriptors for writes: a FileHandle can only be closed on the thread pool.
const openDescriptor = promisify(openWithCallback)
const flush = promisify(fdatasync)
const writevDescriptor = promisify(writev)

function writeChunksNow(descriptor: number, chunks: Uint8Array[]): void {
  for (const chunk of chunks) {
    for (let offset = 0; offset < chunk.byteLength; ) {
      offset += writeSync(descriptor, chunk, offset)
    }
  }
}

async function writeChunks(descriptor: number, chunks: Uint8Array[]): Promise<void> {
  let remaining = chunks
  while (remaining.length > 0) {
    let { bytesWritten } = await writevDescriptor(descriptor, remaining)
    // A short write: drop what was written and go on with the rest.
    while (remaining.length > 0 && bytesWritten >= (remaining[0]?.byteLength ?? 0)) {
      bytesWritten -= remaining[0]?.byteLength ?? 0
      remaining = remaining.slice(1)
    }
    if (bytesWritten > 0 && remaining[0]) {
      remaining = [remaining[0].subarray(bytesWritten), ...remaining.slice(1)]
    }
  }
}

/** Waits for every promise, then throws the first failure: nothing is still running after it. */
async function allSettledOrThrow(promises: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((result) => result.status === 'rejected')
  if (failed) throw failed.reason
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
