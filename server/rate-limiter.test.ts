import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { TEST_REDIS_URL as REDIS_URL, redisReachable } from '#tests/support/redis.ts'
import { memoryRateLimiter, type RateLimiter, redisRateLimiter } from './rate-limiter.ts'

const reachable = await redisReachable(REDIS_URL, 'rate-limiter.test')

/** The behaviour both implementations share. Keys are fresh per test (Redis is shared). */
function sharedBehaviour(make: () => RateLimiter) {
  const limiters: RateLimiter[] = []
  const limiter = () => {
    const made = make()
    limiters.push(made)
    return made
  }
  afterAll(async () => {
    await Promise.all(limiters.map((made) => made.close()))
  })

  it('counts hits per key within a window, and counts without hitting', async () => {
    const limits = limiter()
    const [a, b] = [randomUUID(), randomUUID()]
    expect(await limits.count(a)).toBe(0)
    expect(await limits.hit(a, 60_000)).toBe(1)
    expect(await limits.hit(a, 60_000)).toBe(2)
    expect(await limits.hit(b, 60_000)).toBe(1)
    expect(await limits.count(a)).toBe(2)
    await limits.reset(a)
    expect(await limits.count(a)).toBe(0)
    expect(await limits.count(b)).toBe(1)
  })

  it('starts again once the window is over', async () => {
    const limits = limiter()
    const key = randomUUID()
    expect(await limits.hit(key, 50)).toBe(1)
    expect(await limits.hit(key, 50)).toBe(2)
    await new Promise((resolve) => setTimeout(resolve, 120))
    expect(await limits.count(key)).toBe(0)
    expect(await limits.hit(key, 50)).toBe(1)
  })

  it('counts every one of many hits at once', async () => {
    const limits = limiter()
    const key = randomUUID()
    const counts = await Promise.all(Array.from({ length: 30 }, () => limits.hit(key, 60_000)))
    expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
  })
}

describe('memoryRateLimiter', () => {
  sharedBehaviour(() => memoryRateLimiter())

  it('keeps at most maxKeys keys, dropping expired ones first and then the oldest', async () => {
    let time = 0
    const limits = memoryRateLimiter({ now: () => time, maxKeys: 3 })
    await limits.hit('short', 10)
    await limits.hit('old', 1_000)
    await limits.hit('newer', 1_000)
    time = 20
    await limits.hit('fourth', 1_000)
    expect(await limits.count('old')).toBe(1)
    await limits.hit('fifth', 1_000)
    expect(await limits.count('old')).toBe(0)
    expect(await limits.count('newer')).toBe(1)
    expect(await limits.count('fifth')).toBe(1)
  })
})

describe.skipIf(!reachable)('redisRateLimiter (the real Redis)', () => {
  sharedBehaviour(() => redisRateLimiter({ url: REDIS_URL, prefix: 'techlab-test:limit:' }))

  it('shares counts between instances', async () => {
    const [one, two] = [
      redisRateLimiter({ url: REDIS_URL, prefix: 'techlab-test:limit:' }),
      redisRateLimiter({ url: REDIS_URL, prefix: 'techlab-test:limit:' }),
    ]
    const key = randomUUID()
    await one.hit(key, 60_000)
    expect(await two.hit(key, 60_000)).toBe(2)
    await two.reset(key)
    expect(await one.count(key)).toBe(0)
    await Promise.all([one.close(), two.close()])
  })

  it('fails fast, not hanging, when Redis cannot be reached', async () => {
    const away = redisRateLimiter({ url: 'redis://127.0.0.1:1' })
    await expect(away.hit(randomUUID(), 1_000)).rejects.toThrow()
    await away.close()
  })
})
