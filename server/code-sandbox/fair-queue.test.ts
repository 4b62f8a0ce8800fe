import { describe, expect, it } from 'vitest'
import { createFairQueue, type FairQueueOptions } from '#server/code-sandbox/fair-queue.ts'

// The fair queue on a clock the test moves: no workers, no real time.
function setup(overrides: Partial<FairQueueOptions> = {}) {
  const clock = { at: 1_000_000 }
  const queue = createFairQueue<string>({
    runMsPerWindow: 20_000,
    queuedPerLearner: 40,
    maxQueued: 64,
    parallelism: 1,
    now: () => clock.at,
    ...overrides,
  })
  /** Serves the next run for `ms` of run time and answers whose it was. */
  const serve = (ms: number) => {
    const served = queue.next()
    clock.at += ms
    served?.done()
    return served
  }
  return { clock, queue, serve }
}

describe('the fair queue', () => {
  it('serves a newcomer next, ahead of a flooder with 30 runs waiting', () => {
    const { queue, serve } = setup()
    for (let index = 0; index < 30; index++) queue.push('flooder', `flood-${index}`, 2_000)
    expect(serve(100)?.item).toBe('flood-0')
    expect(queue.push('newcomer', 'mine', 2_000)).toEqual({ accepted: true })
    expect(queue.next()?.item).toBe('mine')
  })

  it('takes turns between learners, each in their own order', () => {
    const { queue, serve } = setup()
    for (const item of ['a1', 'a2', 'a3']) queue.push('a', item, 1_000)
    for (const item of ['b1', 'b2']) queue.push('b', item, 1_000)
    queue.push('c', 'c1', 1_000)
    const order = Array.from({ length: 6 }, () => serve(10)?.item)
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3'])
    expect(queue.next()).toBeUndefined()
    expect(queue.size).toBe(0)
  })

  it('serves the learner who used the least run time first, a flooder last', () => {
    const { queue, serve } = setup()
    queue.push('heavy', 'heavy-1', 10_000)
    queue.push('heavy', 'heavy-2', 10_000)
    expect(serve(3_000)?.item).toBe('heavy-1')
    queue.push('light', 'light-1', 1_000)
    queue.push('light', 'light-2', 1_000)
    expect(serve(100)?.item).toBe('light-1')
    expect(serve(100)?.item).toBe('light-2')
    expect(serve(100)?.item).toBe('heavy-2')
  })

  it('takes out the waiting runs of a learner who went past their budget, with a retry time', () => {
    const { queue, serve } = setup({ runMsPerWindow: 5_000 })
    queue.push('heavy', 'heavy-1', 10_000)
    queue.push('heavy', 'heavy-2', 10_000)
    queue.push('heavy', 'heavy-3', 10_000)
    queue.push('light', 'light-1', 1_000)
    expect(queue.overShareWaiting()).toEqual([])
    expect(serve(6_000)?.item).toBe('heavy-1')
    const refused = queue.overShareWaiting()
    expect(refused.map(({ item }) => item)).toEqual(['heavy-2', 'heavy-3'])
    for (const { retryAfterMs } of refused) expect(retryAfterMs).toBeGreaterThanOrEqual(1_000)
    expect(queue.size).toBe(1)
    expect(serve(100)?.item).toBe('light-1')
    expect(queue.next()).toBeUndefined()
  })

  it('tells a learner past their run-time budget when to come back, and nobody else', () => {
    const { clock, queue, serve } = setup({ runMsPerWindow: 10_000 })
    queue.push('flooder', 'f1', 10_000)
    queue.push('other', 'o1', 10_000)
    serve(10_000)
    serve(1_000)
    const refused = queue.push('flooder', 'f2', 10_000)
    // Half its 10 s of running has left the minute 54 s from now: 55 s in whole seconds.
    expect(refused).toEqual({ accepted: false, reason: 'over-share', retryAfterMs: 55_000 })
    expect(queue.overShare('flooder')).toEqual({ retryAfterMs: 55_000 })
    expect(queue.overShare('other')).toBeUndefined()
    expect(queue.push('other', 'o2', 10_000)).toEqual({ accepted: true })

    // Refused until the time it was told, even once under the budget again.
    clock.at += 50_000
    expect(queue.usedMs('flooder')).toBeLessThan(10_000)
    expect(queue.overShare('flooder')).toEqual({ retryAfterMs: 5_000 })
    // Then the window has slid: what ran a minute ago no longer counts.
    clock.at += 5_000
    expect(queue.overShare('flooder')).toBeUndefined()
    expect(queue.push('flooder', 'f3', 10_000)).toEqual({ accepted: true })
  })

  it('counts a child started for a learner as their run time, so quick submissions add up', () => {
    const { queue, serve } = setup({ runMsPerWindow: 3_000 })
    for (let i = 0; i < 5; i++) {
      queue.push('quick', `q${i}`, 2_000)
      serve(50)
      queue.charge('quick', 600)
    }
    expect(queue.usedMs('quick')).toBe(5 * 650)
    expect(queue.overShare('quick')).toBeDefined()
    expect(queue.overShare('other')).toBeUndefined()
  })

  it('counts a run under way against its learner before it ends', () => {
    const { clock, queue } = setup({ runMsPerWindow: 3_000 })
    queue.push('looper', 'loop', 10_000)
    const running = queue.next()
    clock.at += 4_000
    expect(queue.usedMs('looper')).toBe(4_000)
    expect(queue.overShare('looper')?.retryAfterMs).toBeGreaterThanOrEqual(1_000)
    running?.done()
    expect(queue.usedMs('looper')).toBe(4_000)
  })

  it('refuses a learner with too many runs waiting, with a retry time', () => {
    const { queue } = setup({ queuedPerLearner: 3 })
    for (let index = 0; index < 3; index++) {
      expect(queue.push('flooder', `f${index}`, 2_000)).toEqual({ accepted: true })
    }
    const refused = queue.push('flooder', 'f3', 2_000)
    expect(refused).toMatchObject({ accepted: false, reason: 'over-share' })
    if (!refused.accepted) expect(refused.retryAfterMs).toBeGreaterThanOrEqual(1_000)
    expect(queue.overShare('flooder')).toBeDefined()
    expect(queue.push('newcomer', 'n0', 2_000)).toEqual({ accepted: true })
    expect(queue.overShare('newcomer')).toBeUndefined()
  })

  it('when everything is full, pushes out the flooder’s newest run rather than refuse a newcomer', () => {
    const { queue } = setup({ maxQueued: 4 })
    for (let index = 0; index < 4; index++) queue.push('flooder', `f${index}`, 2_000)
    const admitted = queue.push('newcomer', 'n0', 2_000)
    expect(admitted).toMatchObject({ accepted: true, evicted: { item: 'f3' } })
    expect(queue.size).toBe(4)
    expect(queue.queuedOf('flooder')).toBe(3)
    // Full with everyone at an equal share: the one who would take more is refused.
    queue.push('second', 's0', 2_000)
    queue.push('third', 't0', 2_000)
    expect(queue.queuedOf('flooder')).toBe(1)
    expect(queue.push('newcomer', 'n1', 2_000)).toMatchObject({ accepted: false, reason: 'full' })
  })

  it('gives the server’s own runs (no learner) no budget but a turn like anyone', () => {
    const { queue, serve } = setup({ runMsPerWindow: 1_000, queuedPerLearner: 1 })
    queue.push(undefined, 'own-1', 2_000)
    expect(queue.push(undefined, 'own-2', 2_000)).toEqual({ accepted: true })
    serve(5_000)
    expect(queue.overShare(undefined)).toBeUndefined()
    queue.push('learner', 'l1', 2_000)
    expect(queue.next()?.item).toBe('l1')
  })

  it('removes and drains waiting runs', () => {
    const { queue } = setup()
    queue.push('a', 'a1', 1_000)
    queue.push('a', 'a2', 1_000)
    queue.push('b', 'b1', 1_000)
    expect(queue.remove('a1')).toBe(true)
    expect(queue.remove('a1')).toBe(false)
    expect(queue.size).toBe(2)
    expect(queue.drain().sort()).toEqual(['a2', 'b1'])
    expect(queue.size).toBe(0)
    expect(queue.next()).toBeUndefined()
  })
})
