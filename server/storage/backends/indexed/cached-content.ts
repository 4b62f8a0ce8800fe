import { Readable } from 'node:stream'
import type { ContentReader, ContentStore } from './content-store.ts'

export type ContentCacheLimits = {
  /** Items larger than this are always read from the store. */
  maxItemBytes: number
  /** What all cached items may hold together; the least recently read go first. */
  maxBytes: number
}

/** Avatars, cover images and other small pictures that every page view reads. */
export const DEFAULT_CONTENT_CACHE: ContentCacheLimits = {
  maxItemBytes: 128 * 1024,
  maxBytes: 32 * 1024 * 1024,
}

/**
 * Keeps small content items in memory once read (docs/decisions/010). Items are immutable and
 * their ids never reused, so a cached copy cannot go stale: removing an item is the only thing
 * that ends it, and that drops the copy. A read served from memory costs no open, read and
 * close on the disk's thread pool (or request to the S3 engine).
 */
export function withContentCache(store: ContentStore, limits: ContentCacheLimits): ContentStore {
  const cached = new Map<string, Buffer>()
  // Loads under way; remove() forgets them so that a load finishing later does not keep bytes
  // of a removed item.
  const loading = new Map<string, Promise<Buffer | undefined>>()
  let cachedBytes = 0

  const forget = (id: string) => {
    const bytes = cached.get(id)
    if (bytes) {
      cached.delete(id)
      cachedBytes -= bytes.byteLength
    }
    loading.delete(id)
  }

  const keep = (id: string, bytes: Buffer) => {
    cached.set(id, bytes)
    cachedBytes += bytes.byteLength
    for (const [oldest, old] of cached) {
      if (cachedBytes <= limits.maxBytes) break
      cached.delete(oldest)
      cachedBytes -= old.byteLength
    }
  }

  async function load(id: string, size: number): Promise<Buffer | undefined> {
    const reader = await store.open(id, size)
    if (!reader) return undefined
    const chunks: Buffer[] = await reader.read().toArray()
    const read = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0)
    if (read !== size) throw new Error(`The content ${id} has ${read} bytes, its index row ${size}`)
    // One exact-size copy: the chunks may be views of larger buffers that it should not pin.
    return Buffer.concat(chunks, size)
  }

  return {
    ...store,
    async open(id, size) {
      if (size > limits.maxItemBytes) return store.open(id, size)
      const hit = cached.get(id)
      if (hit) {
        // Most recently read last: a Map keeps insertion order, and eviction starts at the front.
        cached.delete(id)
        cached.set(id, hit)
        return bytesReader(hit)
      }
      let pending = loading.get(id)
      if (!pending) {
        pending = load(id, size)
        loading.set(id, pending)
      }
      try {
        const bytes = await pending
        // Still ours to settle: neither removed meanwhile nor kept by another reader of it.
        if (bytes && loading.get(id) === pending) keep(id, bytes)
        return bytes && bytesReader(bytes)
      } finally {
        if (loading.get(id) === pending) loading.delete(id)
      }
    },
    async remove(id) {
      forget(id)
      await store.remove(id)
    },
  }
}

/** A reader of bytes in memory (read only: the cached copy itself is handed on). */
function bytesReader(bytes: Buffer): ContentReader {
  return {
    read(range) {
      const chunk = range ? bytes.subarray(range.start, range.end + 1) : bytes
      return new Readable({
        read() {
          if (chunk.byteLength > 0) this.push(chunk)
          this.push(null)
        },
      })
    },
  }
}
