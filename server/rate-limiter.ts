import { Redis } from 'ioredis'

/**
 * Counts events per key in fixed windows: a key's window starts at its first event and lasts
 * `windowMs`; then the count starts again from zero. In memory (one instance) or in Redis
 * (every instance sharing one count: the scale-out path, REDIS_URL). docs/decisions/021.
 */
export type RateLimiter = {
  /** Counts one event; resolves to the count in the key's window, this one included. */
  hit(key: string, windowMs: number): Promise<number>
  /** The count in the key's window so far, without adding one (0 when there is none). */
  count(key: string): Promise<number>
  /** Forgets the key's count. */
  reset(key: string): Promise<void>
  close(): Promise<void>
}

/** The most keys the in-memory limiter keeps; past it, expired ones go, then the oldest. */
export const MEMORY_LIMITER_MAX_KEYS = 100_000

export function memoryRateLimiter(
  options: { now?: () => number; maxKeys?: number } = {},
): RateLimiter {
  const now = options.now ?? Date.now
  const maxKeys = options.maxKeys ?? MEMORY_LIMITER_MAX_KEYS
  const windows = new Map<string, { count: number; endsAt: number }>()

  function current(key: string) {
    const window = windows.get(key)
    if (window && window.endsAt <= now()) {
      windows.delete(key)
      return undefined
    }
    return window
  }

  // Bounded, so that a flood of new addresses cannot grow the map without end.
  function makeRoom() {
    if (windows.size < maxKeys) return
    const time = now()
    for (const [key, window] of windows) if (window.endsAt <= time) windows.delete(key)
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break
      windows.delete(key)
    }
  }

  return {
    async hit(key, windowMs) {
      const window = current(key)
      if (window) {
        window.count += 1
        return window.count
      }
      makeRoom()
      windows.set(key, { count: 1, endsAt: now() + windowMs })
      return 1
    },
    async count(key) {
      return current(key)?.count ?? 0
    },
    async reset(key) {
      windows.delete(key)
    },
    async close() {
      windows.clear()
    },
  }
}

// INCR and the window's expiry in one step, so that no key is left without an expiry.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`

export function redisRateLimiter(options: { url: string; prefix?: string }): RateLimiter {
  const prefix = options.prefix ?? 'techlab:limit:'
  // Fail fast rather than queue while Redis is away: the callers decide what a failure means.
  const redis = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
  })
  // Errors reach the callers through their commands; the client would otherwise log them.
  redis.on('error', () => {})
  const ready = new Promise<void>((resolve) => {
    if (redis.status === 'ready') resolve()
    else redis.once('ready', () => resolve())
  })
  /** Waits for the first connection (briefly), so the first requests after start-up count. */
  async function connected() {
    if (redis.status === 'ready') return
    await Promise.race([ready, new Promise((resolve) => setTimeout(resolve, 2_000).unref())])
  }
  return {
    async hit(key, windowMs) {
      await connected()
      return Number(await redis.eval(HIT_SCRIPT, 1, prefix + key, String(windowMs)))
    },
    async count(key) {
      await connected()
      return Number((await redis.get(prefix + key)) ?? 0)
    },
    async reset(key) {
      await connected()
      await redis.del(prefix + key)
    },
    async close() {
      redis.disconnect()
    },
  }
}
