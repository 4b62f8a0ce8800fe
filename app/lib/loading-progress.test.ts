import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  estimatedProgress,
  LOADING_BAR,
  type LoadingBarState,
  LoadingProgress,
  loadingProgress,
  trackRequest,
} from './loading-progress.ts'

/** Timers for LoadingProgress driven by Vitest's fake clock. */
function fakeTimers() {
  return {
    now: () => Date.now(),
    setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
    clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  }
}

function deferred<T>() {
  let resolve: (value: T) => void = () => {}
  let reject: (error: unknown) => void = () => {}
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 })
})

afterEach(() => {
  vi.useRealTimers()
})

describe('estimatedProgress', () => {
  it('starts at 0, increases, and stays below 100', () => {
    expect(estimatedProgress(0)).toBe(0)
    let previous = 0
    for (const elapsed of [50, 200, 1000, 2500, 5000, 10_000, 60_000, 3_600_000]) {
      const progress = estimatedProgress(elapsed)
      expect(progress, `at ${elapsed} ms`).toBeGreaterThan(previous)
      expect(progress, `at ${elapsed} ms`).toBeLessThan(100)
      previous = progress
    }
  })

  it('is about 70 % at the expected duration', () => {
    expect(estimatedProgress(LOADING_BAR.durationMs)).toBeCloseTo(70, 0)
    expect(estimatedProgress(10_000, 10_000)).toBeCloseTo(70, 0)
  })
})

describe('LoadingProgress', () => {
  function setup() {
    const progress = new LoadingProgress(fakeTimers())
    const states: LoadingBarState[] = []
    progress.subscribe(() => states.push(progress.getSnapshot().state))
    return { progress, states }
  }

  it('never shows work shorter than 200 ms', () => {
    const { progress, states } = setup()
    progress.start()
    vi.advanceTimersByTime(199)
    progress.finish()
    vi.advanceTimersByTime(10_000)
    expect(progress.getSnapshot()).toEqual({ state: 'hidden', progress: 0 })
    expect(states).toEqual([])
  })

  it('shows longer work after 200 ms, then finishes and hides 500 ms later', () => {
    const { progress, states } = setup()
    progress.start()
    vi.advanceTimersByTime(199)
    expect(progress.getSnapshot().state).toBe('hidden')
    vi.advanceTimersByTime(1)
    expect(progress.getSnapshot().state).toBe('shown')

    vi.advanceTimersByTime(4_800)
    expect(progress.progressNow()).toBeCloseTo(estimatedProgress(5_000), 5)

    progress.finish()
    expect(progress.getSnapshot()).toEqual({ state: 'finished', progress: 100 })
    expect(progress.progressNow()).toBe(100)
    vi.advanceTimersByTime(499)
    expect(progress.getSnapshot().state).toBe('finished')
    vi.advanceTimersByTime(1)
    expect(progress.getSnapshot()).toEqual({ state: 'hidden', progress: 0 })
    expect(states).toEqual(['shown', 'finished', 'hidden'])
  })

  it('reports failed work as failed', () => {
    const { progress, states } = setup()
    progress.start()
    vi.advanceTimersByTime(300)
    progress.finish({ failed: true })
    expect(progress.getSnapshot()).toEqual({ state: 'failed', progress: 100 })
    vi.advanceTimersByTime(500)
    expect(states).toEqual(['shown', 'failed', 'hidden'])
  })

  it('counts overlapping work: it stays shown until the last piece finishes', () => {
    const { progress } = setup()
    progress.start()
    progress.start()
    vi.advanceTimersByTime(200)
    expect(progress.getSnapshot().state).toBe('shown')
    progress.finish()
    vi.advanceTimersByTime(10_000)
    expect(progress.getSnapshot().state).toBe('shown')
    progress.finish()
    expect(progress.getSnapshot().state).toBe('finished')
  })

  it('shows overlapping work that together lasts longer than 200 ms', () => {
    const { progress } = setup()
    progress.start()
    vi.advanceTimersByTime(150)
    progress.start()
    progress.finish()
    vi.advanceTimersByTime(100)
    expect(progress.getSnapshot().state).toBe('shown')
    progress.finish()
    expect(progress.getSnapshot().state).toBe('finished')
  })

  it('fails when any overlapping piece failed', () => {
    const { progress } = setup()
    progress.start()
    progress.start()
    vi.advanceTimersByTime(200)
    progress.finish({ failed: true })
    progress.finish()
    expect(progress.getSnapshot().state).toBe('failed')
  })

  it('remembers a failure while later overlapping work starts and finishes', () => {
    const { progress } = setup()
    progress.start()
    progress.start()
    vi.advanceTimersByTime(200)
    progress.finish({ failed: true })
    progress.start()
    progress.finish()
    progress.finish()
    expect(progress.getSnapshot().state).toBe('failed')
  })

  it('does not restart the progress when more work joins', () => {
    const { progress } = setup()
    progress.start()
    vi.advanceTimersByTime(1_000)
    progress.start()
    vi.advanceTimersByTime(500)
    expect(progress.progressNow()).toBeCloseTo(estimatedProgress(1_500), 5)
  })

  it('measures progress from when the work started, not from when the bar appeared', () => {
    const { progress } = setup()
    progress.start()
    vi.advanceTimersByTime(1_000)
    expect(progress.progressNow()).toBeCloseTo(estimatedProgress(1_000), 5)
  })

  it('keeps the bar visible for new work while it fades out', () => {
    const { progress, states } = setup()
    progress.start()
    vi.advanceTimersByTime(200)
    progress.finish()
    vi.advanceTimersByTime(100)
    progress.start()
    expect(progress.getSnapshot()).toEqual({ state: 'shown', progress: 0 })
    // The pending hide must not fire for the new work.
    vi.advanceTimersByTime(1_000)
    expect(progress.getSnapshot().state).toBe('shown')
    expect(progress.progressNow()).toBeCloseTo(estimatedProgress(1_000), 5)
    progress.finish()
    vi.advanceTimersByTime(500)
    expect(states).toEqual(['shown', 'finished', 'shown', 'finished', 'hidden'])
  })

  it('ignores a finish without a start', () => {
    const { progress, states } = setup()
    progress.finish()
    progress.start()
    vi.advanceTimersByTime(200)
    expect(progress.getSnapshot().state).toBe('shown')
    expect(states).toEqual(['shown'])
  })

  it('stops notifying after unsubscribe', () => {
    const progress = new LoadingProgress(fakeTimers())
    const listener = vi.fn()
    const unsubscribe = progress.subscribe(listener)
    progress.start()
    vi.advanceTimersByTime(200)
    expect(listener).toHaveBeenCalledTimes(1)
    unsubscribe()
    progress.finish()
    vi.advanceTimersByTime(500)
    expect(listener).toHaveBeenCalledTimes(1)
  })
})

describe('trackRequest', () => {
  afterEach(() => {
    // Let the shared bar return to hidden so tests do not leak into each other.
    vi.advanceTimersByTime(LOADING_BAR.hideDelayMs)
  })

  it('shows the shared bar while a slow request runs and returns its result', async () => {
    const response = deferred<string>()
    const request = trackRequest(() => response.promise)
    await vi.advanceTimersByTimeAsync(200)
    expect(loadingProgress.getSnapshot().state).toBe('shown')
    response.resolve('done')
    await expect(request).resolves.toBe('done')
    expect(loadingProgress.getSnapshot()).toEqual({ state: 'finished', progress: 100 })
  })

  it('reports a failed request and rethrows its error', async () => {
    const response = deferred<string>()
    const failure = new Error('network down')
    const request = trackRequest(() => response.promise)
    const outcome = expect(request).rejects.toBe(failure)
    await vi.advanceTimersByTimeAsync(200)
    response.reject(failure)
    await outcome
    expect(loadingProgress.getSnapshot()).toEqual({ state: 'failed', progress: 100 })
  })

  it('does not show the bar for a fast request', async () => {
    const listener = vi.fn()
    const unsubscribe = loadingProgress.subscribe(listener)
    await expect(trackRequest(async () => 42)).resolves.toBe(42)
    await vi.advanceTimersByTimeAsync(1_000)
    unsubscribe()
    expect(listener).not.toHaveBeenCalled()
    expect(loadingProgress.getSnapshot().state).toBe('hidden')
  })
})
