/** The seed's loading-bar constants. */
export const LOADING_BAR = { throttleMs: 200, durationMs: 5000, hideDelayMs: 500 } as const

export type LoadingBarState = 'hidden' | 'shown' | 'finished' | 'failed'
export type LoadingBarSnapshot = { state: LoadingBarState; progress: number }

type Timers = {
  now(): number
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

const browserTimers: Timers = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as number),
}

/**
 * Progress shown for work that started `elapsedMs` ago: climbs quickly, then ever more slowly,
 * reaching about 70 % after the expected duration and never 100 % before the work ends.
 */
export function estimatedProgress(
  elapsedMs: number,
  durationMs: number = LOADING_BAR.durationMs,
): number {
  return (200 / Math.PI) * Math.atan(((elapsedMs / durationMs) * 100) / 50)
}

/**
 * Counts outstanding work (navigations and requests) and turns it into the bar's state:
 * hidden → shown once work has lasted the throttle time → finished or failed → hidden
 * again after the hide delay. Work shorter than the throttle never shows the bar.
 */
export class LoadingProgress {
  private active = 0
  private failedSinceStart = false
  private startedAt = 0
  private snapshot: LoadingBarSnapshot = { state: 'hidden', progress: 0 }
  private showTimer: unknown
  private hideTimer: unknown
  private readonly listeners = new Set<() => void>()

  private readonly timers: Timers

  constructor(timers: Timers = browserTimers) {
    this.timers = timers
  }

  getSnapshot = (): LoadingBarSnapshot => this.snapshot

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The progress to draw now; the component calls this on animation frames while shown. */
  progressNow(): number {
    if (this.snapshot.state !== 'shown') return this.snapshot.progress
    return estimatedProgress(this.timers.now() - this.startedAt)
  }

  start(): void {
    this.active += 1
    if (this.active > 1) return
    this.failedSinceStart = false
    this.timers.clearTimeout(this.hideTimer)
    if (this.snapshot.state === 'finished' || this.snapshot.state === 'failed') {
      // New work while the bar is fading out: keep it visible and restart its progress.
      this.startedAt = this.timers.now()
      this.set({ state: 'shown', progress: 0 })
      return
    }
    this.startedAt = this.timers.now()
    this.showTimer = this.timers.setTimeout(() => {
      this.showTimer = undefined
      if (this.active > 0) this.set({ state: 'shown', progress: this.progressNow() })
    }, LOADING_BAR.throttleMs)
  }

  finish(options: { failed?: boolean } = {}): void {
    if (this.active === 0) return
    if (options.failed) this.failedSinceStart = true
    this.active -= 1
    if (this.active > 0) return
    if (this.showTimer !== undefined) {
      this.timers.clearTimeout(this.showTimer)
      this.showTimer = undefined
      return
    }
    if (this.snapshot.state !== 'shown') return
    this.set({ state: this.failedSinceStart ? 'failed' : 'finished', progress: 100 })
    this.hideTimer = this.timers.setTimeout(() => {
      this.set({ state: 'hidden', progress: 0 })
    }, LOADING_BAR.hideDelayMs)
  }

  private set(snapshot: LoadingBarSnapshot): void {
    this.snapshot = snapshot
    for (const listener of this.listeners) listener()
  }
}

/** The page's one loading bar; navigations and `callApi` requests report to it. */
export const loadingProgress = new LoadingProgress()

/** Runs a request with the loading bar showing while it is outstanding. */
export async function trackRequest<T>(work: () => Promise<T>): Promise<T> {
  loadingProgress.start()
  try {
    const result = await work()
    loadingProgress.finish()
    return result
  } catch (error) {
    loadingProgress.finish({ failed: true })
    throw error
  }
}
