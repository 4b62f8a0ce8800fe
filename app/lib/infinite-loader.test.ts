import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  INFINITE_SCROLL,
  InfiniteLoader,
  type InfiniteState,
  type PageResult,
  throttle,
} from './infinite-loader.ts'

function deferred<T>() {
  let resolve: (value: T) => void = () => {}
  let reject: (error: unknown) => void = () => {}
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/** A clock whose time only moves when the test says so and whose delays end at once. */
function manualClock(start = 0) {
  let time = start
  return {
    now: () => time,
    delay: vi.fn(async (_ms: number) => {}),
    advance(ms: number) {
      time += ms
    },
  }
}

/** Pages 2, 3, … of numbers, `pages` pages in all, each with `size` items. */
function numberPages(pages: number, size = 2) {
  return vi.fn(async (cursor: string): Promise<PageResult<number>> => {
    const page = Number(cursor)
    const items = Array.from({ length: size }, (_, index) => (page - 1) * size + index + 1)
    return { items, nextCursor: page < pages ? String(page + 1) : null }
  })
}

describe('InfiniteLoader', () => {
  it('starts complete when the first page has no next cursor', async () => {
    const fetchPage = vi.fn()
    const loader = new InfiniteLoader({ items: [1], nextCursor: null }, fetchPage, {
      clock: manualClock(),
    })
    expect(loader.getSnapshot()).toEqual({ items: [1], state: 'complete', loopStopped: false })
    await loader.trigger()
    await loader.retry()
    expect(fetchPage).not.toHaveBeenCalled()
  })

  it('starts complete with no items for an empty first page', () => {
    const loader = new InfiniteLoader({ items: [], nextCursor: null }, vi.fn())
    expect(loader.getSnapshot().state).toBe('complete')
    expect(loader.getSnapshot().items).toEqual([])
  })

  it('goes ready → loading → ready, accumulating items, then complete', async () => {
    const clock = manualClock()
    const fetchPage = numberPages(3)
    const loader = new InfiniteLoader({ items: [1, 2], nextCursor: '2' }, fetchPage, { clock })
    const states: InfiniteState[] = []
    loader.subscribe(() => states.push(loader.getSnapshot().state))

    expect(loader.getSnapshot().state).toBe('ready')
    await loader.trigger()
    expect(fetchPage).toHaveBeenLastCalledWith('2')
    expect(loader.getSnapshot()).toEqual({
      items: [1, 2, 3, 4],
      state: 'ready',
      loopStopped: false,
    })

    clock.advance(5_000)
    await loader.trigger()
    expect(fetchPage).toHaveBeenLastCalledWith('3')
    expect(loader.getSnapshot().items).toEqual([1, 2, 3, 4, 5, 6])
    expect(loader.getSnapshot().state).toBe('complete')
    expect(states).toEqual(['loading', 'ready', 'loading', 'complete'])

    clock.advance(5_000)
    await loader.trigger()
    expect(fetchPage).toHaveBeenCalledTimes(2)
  })

  it('goes to error when a page fails, and retry loads the same page again', async () => {
    const clock = manualClock()
    const fetchPage = vi
      .fn<(cursor: string) => Promise<PageResult<string>>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce({ items: ['b'], nextCursor: null })
    const loader = new InfiniteLoader({ items: ['a'], nextCursor: 'c1' }, fetchPage, { clock })

    await loader.trigger()
    expect(loader.getSnapshot()).toEqual({ items: ['a'], state: 'error', loopStopped: false })

    // Scrolling does not retry by itself.
    await loader.trigger()
    expect(fetchPage).toHaveBeenCalledTimes(1)

    await loader.retry()
    expect(fetchPage).toHaveBeenCalledTimes(2)
    expect(fetchPage).toHaveBeenNthCalledWith(2, 'c1')
    expect(loader.getSnapshot()).toEqual({
      items: ['a', 'b'],
      state: 'complete',
      loopStopped: false,
    })
  })

  it('lasts at least the minimum fetch delay even when the fetch answers at once', async () => {
    const minimum = deferred<void>()
    const clock = { now: () => 0, delay: vi.fn(() => minimum.promise) }
    const fetchPage = vi.fn(async () => ({ items: [2], nextCursor: 'next' }))
    const loader = new InfiniteLoader({ items: [1], nextCursor: 'c' }, fetchPage, {
      clock,
      minFetchDelayMs: 300,
    })

    const loading = loader.trigger()
    expect(clock.delay).toHaveBeenCalledWith(300)
    await vi.waitFor(() => expect(fetchPage).toHaveBeenCalled())
    // Let the resolved fetch settle completely: the loader must still wait for the delay.
    for (let turn = 0; turn < 10; turn++) await Promise.resolve()
    expect(loader.getSnapshot().state).toBe('loading')
    expect(loader.getSnapshot().items).toEqual([1])

    minimum.resolve()
    await loading
    expect(loader.getSnapshot()).toEqual({ items: [1, 2], state: 'ready', loopStopped: false })
  })

  it('uses a 200 ms minimum fetch delay by default', async () => {
    const clock = manualClock()
    const loader = new InfiniteLoader({ items: [], nextCursor: '2' }, numberPages(2), { clock })
    await loader.trigger()
    expect(clock.delay).toHaveBeenCalledWith(INFINITE_SCROLL.minFetchDelayMs)
    expect(INFINITE_SCROLL.minFetchDelayMs).toBe(200)
  })

  it('ignores triggers while a page is loading', async () => {
    const response = deferred<PageResult<number>>()
    const fetchPage = vi.fn(() => response.promise)
    const loader = new InfiniteLoader({ items: [1], nextCursor: 'c' }, fetchPage, {
      clock: manualClock(),
    })

    const first = loader.trigger()
    expect(loader.getSnapshot().state).toBe('loading')
    await loader.trigger()
    await loader.retry()
    expect(fetchPage).toHaveBeenCalledTimes(1)

    response.resolve({ items: [2], nextCursor: null })
    await first
    expect(loader.getSnapshot().items).toEqual([1, 2])
  })

  describe('loop check', () => {
    beforeEach(() => {
      vi.spyOn(console, 'error').mockImplementation(() => {})
    })
    afterEach(() => {
      vi.restoreAllMocks()
    })

    it('stops automatic loading at the 10th trigger within 1000 ms, until retry', async () => {
      const clock = manualClock(50_000) // now() never advances
      const fetchPage = vi.fn(async (cursor: string) => ({
        items: [cursor],
        nextCursor: `${cursor}+`,
      }))
      const loader = new InfiniteLoader({ items: [], nextCursor: 'p' }, fetchPage, {
        clock,
        minFetchDelayMs: 0,
      })

      for (let call = 1; call <= 9; call++) {
        await loader.trigger()
        expect(loader.getSnapshot().loopStopped).toBe(false)
      }
      expect(fetchPage).toHaveBeenCalledTimes(9)

      await loader.trigger()
      expect(loader.getSnapshot()).toMatchObject({ state: 'ready', loopStopped: true })
      expect(fetchPage).toHaveBeenCalledTimes(9)
      expect(console.error).toHaveBeenCalledOnce()

      // Further triggers stay stopped.
      await loader.trigger()
      expect(fetchPage).toHaveBeenCalledTimes(9)

      await loader.retry()
      expect(fetchPage).toHaveBeenCalledTimes(10)
      expect(loader.getSnapshot()).toMatchObject({ state: 'ready', loopStopped: false })
      expect(loader.getSnapshot().items).toHaveLength(10)

      // The count starts again after retry.
      await loader.trigger()
      expect(fetchPage).toHaveBeenCalledTimes(11)
      expect(loader.getSnapshot().loopStopped).toBe(false)
    })

    it('does not stop when the triggers are spread over more than 1000 ms', async () => {
      const clock = manualClock()
      const fetchPage = vi.fn(async (cursor: string) => ({ items: [cursor], nextCursor: 'next' }))
      const loader = new InfiniteLoader({ items: [], nextCursor: 'p' }, fetchPage, {
        clock,
        minFetchDelayMs: 0,
      })
      for (let call = 0; call < 30; call++) {
        await loader.trigger()
        clock.advance(120) // 9 triggers span 960 ms; the 10th falls outside the window
      }
      expect(loader.getSnapshot().loopStopped).toBe(false)
      expect(fetchPage).toHaveBeenCalledTimes(30)
      expect(console.error).not.toHaveBeenCalled()
    })

    it('stops when 10 triggers fall within the window even if time moves', async () => {
      const clock = manualClock()
      const fetchPage = vi.fn(async () => ({ items: [1], nextCursor: 'next' }))
      const loader = new InfiniteLoader({ items: [], nextCursor: 'p' }, fetchPage, {
        clock,
        minFetchDelayMs: 0,
      })
      for (let call = 0; call < 10; call++) {
        await loader.trigger()
        clock.advance(100) // the 10th trigger is 900 ms after the first
      }
      expect(loader.getSnapshot().loopStopped).toBe(true)
      expect(fetchPage).toHaveBeenCalledTimes(9)
    })
  })
})

describe('throttle', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 10_000 })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('runs the first call at once', () => {
    const run = vi.fn()
    const throttled = throttle(run, 50)
    throttled()
    expect(run).toHaveBeenCalledTimes(1)
  })

  it('runs at most once per window, with a trailing call for the last event', () => {
    const run = vi.fn()
    const throttled = throttle(run, 50)
    throttled() // leading, t=0
    vi.advanceTimersByTime(10)
    throttled()
    vi.advanceTimersByTime(10)
    throttled()
    expect(run).toHaveBeenCalledTimes(1)

    vi.advanceTimersByTime(29) // t=49
    expect(run).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(1) // t=50: the trailing call
    expect(run).toHaveBeenCalledTimes(2)

    vi.advanceTimersByTime(1_000)
    expect(run).toHaveBeenCalledTimes(2)
  })

  it('spaces calls during a steady stream of events by the window', () => {
    const run = vi.fn()
    const throttled = throttle(run, 50)
    const callTimes: number[] = []
    run.mockImplementation(() => callTimes.push(Date.now() - 10_000))
    for (let t = 0; t < 300; t += 5) {
      throttled()
      vi.advanceTimersByTime(5)
    }
    vi.advanceTimersByTime(100)
    const gaps = callTimes.slice(1).map((at, index) => at - (callTimes[index] ?? 0))
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(50)
    // 300 ms of events: a call at 0, 50, …, 250, and the trailing one at 300.
    expect(callTimes).toEqual([0, 50, 100, 150, 200, 250, 300])
  })

  it('runs a call after a quiet window at once again', () => {
    const run = vi.fn()
    const throttled = throttle(run, 50)
    throttled()
    vi.advanceTimersByTime(50)
    throttled()
    expect(run).toHaveBeenCalledTimes(2)
  })

  it('cancel drops the pending trailing call', () => {
    const run = vi.fn()
    const throttled = throttle(run, 50)
    throttled()
    throttled()
    throttled.cancel()
    vi.advanceTimersByTime(1_000)
    expect(run).toHaveBeenCalledTimes(1)
  })

  it('still makes trailing calls when used again after cancel', () => {
    const run = vi.fn()
    const throttled = throttle(run, 50)
    throttled()
    throttled()
    throttled.cancel()
    vi.advanceTimersByTime(1_000)

    throttled() // leading
    throttled() // within the window: needs a trailing call
    vi.advanceTimersByTime(50)
    expect(run).toHaveBeenCalledTimes(3)
  })
})
