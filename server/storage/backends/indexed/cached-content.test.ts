import { truncate } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  openTemporaryContentFiles,
  putText as put,
} from '#server/storage/backends/fs/temporary-content-files.ts'
import { withContentCache } from './cached-content.ts'
import type { ContentStore } from './content-store.ts'

let disk: Awaited<ReturnType<typeof openTemporaryContentFiles>>
let files: ContentStore
let opened: string[]

beforeEach(async () => {
  disk = await openTemporaryContentFiles()
  opened = []
  files = {
    ...disk.files,
    open(id, size) {
      opened.push(id)
      return disk.files.open(id, size)
    },
  }
})

afterEach(() => disk.remove())

async function readText(
  store: ContentStore,
  id: string,
  size: number,
  range?: { start: number; end: number },
) {
  const reader = await store.open(id, size)
  if (!reader) return undefined
  return Buffer.concat(await reader.read(range).toArray()).toString()
}

describe('the content cache', () => {
  it('reads a small item from the store once, then from memory, whole or in ranges', async () => {
    const cache = withContentCache(files, { maxItemBytes: 100, maxBytes: 1000 })
    const id = await put(cache, 'hello, world')
    expect(await readText(cache, id, 12)).toBe('hello, world')
    expect(await readText(cache, id, 12, { start: 7, end: 11 })).toBe('world')
    expect(await readText(cache, id, 12)).toBe('hello, world')
    expect(opened).toEqual([id])
  })

  it('always reads items over the size limit from the store', async () => {
    const cache = withContentCache(files, { maxItemBytes: 4, maxBytes: 1000 })
    const id = await put(cache, 'too long')
    await readText(cache, id, 8)
    await readText(cache, id, 8)
    expect(opened).toEqual([id, id])
  })

  it('forgets a removed item: it is gone, not served from memory', async () => {
    const cache = withContentCache(files, { maxItemBytes: 100, maxBytes: 1000 })
    const id = await put(cache, 'short-lived')
    expect(await readText(cache, id, 11)).toBe('short-lived')
    await cache.remove(id)
    expect(await cache.open(id, 11)).toBeUndefined()
  })

  it('does not keep an item removed while it was being read', async () => {
    let resume!: () => void
    const paused = new Promise<void>((resolve) => {
      resume = resolve
    })
    let pausedOpen!: () => void
    const opening = new Promise<void>((resolve) => {
      pausedOpen = resolve
    })
    const cache = withContentCache(
      {
        ...files,
        async open(id, size) {
          // The file is open (the reader's snapshot) before the removal below.
          const reader = await files.open(id, size)
          pausedOpen()
          await paused
          return reader
        },
      },
      { maxItemBytes: 100, maxBytes: 1000 },
    )
    const id = await put(cache, 'racing')
    const reading = readText(cache, id, 6)
    await opening
    await cache.remove(id)
    resume()
    // The first reader had its snapshot; nobody after it gets the bytes.
    expect(await reading).toBe('racing')
    expect(await cache.open(id, 6)).toBeUndefined()
  })

  it('lets the least recently read items go first when full', async () => {
    const cache = withContentCache(files, { maxItemBytes: 100, maxBytes: 20 })
    const a = await put(cache, 'aaaaaaaaaa')
    const b = await put(cache, 'bbbbbbbbbb')
    const c = await put(cache, 'cccccccccc')
    await readText(cache, a, 10)
    await readText(cache, b, 10)
    await readText(cache, a, 10)
    await readText(cache, c, 10)
    opened.length = 0
    await readText(cache, a, 10)
    await readText(cache, c, 10)
    expect(opened).toEqual([])
    await readText(cache, b, 10)
    expect(opened).toEqual([b])
  })

  it('refuses an item shorter than its index row says, and does not keep it', async () => {
    const cache = withContentCache(files, { maxItemBytes: 100, maxBytes: 1000 })
    const id = await put(cache, 'twelve bytes')
    await truncate(path.join(disk.directory, 'content', id), 5)
    await expect(readText(cache, id, 12)).rejects.toThrow(/shorter|5 bytes/)
    await expect(readText(cache, id, 12)).rejects.toThrow(/shorter|5 bytes/)
    expect(opened).toEqual([id, id])
  })
})
