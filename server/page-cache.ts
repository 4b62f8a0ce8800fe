import {
  COMPRESSION_THRESHOLD_BYTES,
  type ContentCoding,
  compressForReuse,
  isCompressible,
} from './compression.ts'

/**
 * A short-lived in-process cache of whole page responses for anonymous visitors.
 *
 * A page opts in the way it would for a CDN: `Cache-Control: public, s-maxage=N`. Only
 * 200 responses without Set-Cookie are kept, for N seconds, and concurrent misses for the
 * same key wait for one render instead of rendering the same page many times. Each content
 * coding of a kept page is compressed once, when first asked for, and replayed as bytes.
 */
export type CachedPage = {
  /**
   * A fresh Response for this request; cached bodies are replayed from memory, in `coding`
   * when the page is worth compressing (the answer then says so in Content-Encoding).
   */
  toResponse(coding?: ContentCoding): Promise<Response>
}

export type PageCache = {
  get(key: string, render: () => Promise<Response>): Promise<CachedPage>
  clear(): void
}

type Entry = {
  status: number
  headers: [string, string][]
  body: Uint8Array<ArrayBuffer>
  /** The body in each content coding asked for so far, compressed once. */
  encoded: Map<ContentCoding, Promise<Uint8Array>>
  expiresAt: number
}

export function createPageCache(options: { maxEntries: number; now?: () => number }): PageCache {
  const now = options.now ?? Date.now
  const entries = new Map<string, Entry>()
  const rendering = new Map<string, Promise<Entry | undefined>>()

  function fresh(key: string): Entry | undefined {
    const entry = entries.get(key)
    if (!entry) return undefined
    if (entry.expiresAt <= now()) {
      entries.delete(key)
      return undefined
    }
    // Re-insert so the Map's order is least recently used first.
    entries.delete(key)
    entries.set(key, entry)
    return entry
  }

  function store(key: string, entry: Entry): void {
    entries.set(key, entry)
    while (entries.size > options.maxEntries) {
      const oldest = entries.keys().next().value
      if (oldest === undefined) break
      entries.delete(oldest)
    }
  }

  return {
    clear() {
      entries.clear()
    },
    async get(key, render) {
      if (options.maxEntries === 0) return passThrough(await render())
      const hit = fresh(key)
      if (hit) return replay(hit, 'hit')
      const pending = rendering.get(key)
      if (pending) {
        const shared = await pending
        return shared ? replay(shared, 'hit') : passThrough(await render())
      }

      let settle: (entry: Entry | undefined) => void = () => {}
      rendering.set(key, new Promise((resolve) => (settle = resolve)))
      try {
        const response = await render()
        const seconds = sharedMaxAge(response)
        if (seconds === 0) {
          settle(undefined)
          return passThrough(response)
        }
        const entry: Entry = {
          status: response.status,
          headers: [...response.headers],
          body: new Uint8Array(await response.arrayBuffer()),
          encoded: new Map(),
          expiresAt: now() + seconds * 1000,
        }
        store(key, entry)
        settle(entry)
        return replay(entry, 'miss')
      } catch (error) {
        settle(undefined)
        throw error
      } finally {
        rendering.delete(key)
      }
    },
  }
}

/** Seconds a shared cache may keep this response; 0 when it may not. */
export function sharedMaxAge(response: Response): number {
  if (response.status !== 200 || response.headers.has('set-cookie')) return 0
  const directives = (response.headers.get('cache-control') ?? '').toLowerCase()
  if (!/\bpublic\b/.test(directives) || /\b(private|no-store|no-cache)\b/.test(directives)) return 0
  const match = /\bs-maxage=(\d+)/.exec(directives)
  return match ? Number(match[1]) : 0
}

function replay(entry: Entry, outcome: 'hit' | 'miss'): CachedPage {
  return {
    async toResponse(coding) {
      const headers = new Headers(entry.headers)
      headers.set('x-page-cache', outcome)
      const compressible =
        entry.body.byteLength >= COMPRESSION_THRESHOLD_BYTES &&
        isCompressible(headers.get('content-type') ?? undefined)
      if (compressible) headers.append('vary', 'Accept-Encoding')
      if (!compressible || !coding) {
        return new Response(entry.body.byteLength > 0 ? entry.body : null, {
          status: entry.status,
          headers,
        })
      }
      let encoded = entry.encoded.get(coding)
      if (!encoded) {
        encoded = compressForReuse(entry.body, coding)
        entry.encoded.set(coding, encoded)
        // A failed compression is not kept: the next replay tries again.
        encoded.catch(() => entry.encoded.delete(coding))
      }
      const body = await encoded
      headers.set('content-encoding', coding)
      headers.set('content-length', String(body.byteLength))
      return new Response(body as Uint8Array<ArrayBuffer>, { status: entry.status, headers })
    },
  }
}

function passThrough(response: Response): CachedPage {
  return { toResponse: async () => response }
}
