/** The seed's infinite-scroll constants and default texts (kept verbatim). */
export const INFINITE_SCROLL = {
  distancePx: 100,
  throttleMs: 50,
  loopCheckWindowMs: 1000,
  loopCheckMaxCalls: 10,
  minFetchDelayMs: 200,
} as const

export const INFINITE_SCROLL_TEXTS = {
  noResults: 'No results :(',
  noMore: 'No more data :)',
  error: 'Opps, something went wrong :(',
  retry: 'Retry',
} as const

export type InfiniteState = 'ready' | 'loading' | 'complete' | 'error'
export type PageResult<T> = { items: T[]; nextCursor: string | null }

export type InfiniteSnapshot<T> = {
  items: T[]
  state: InfiniteState
  /** True when loading stopped by itself because it was triggered too often (see loop check). */
  loopStopped: boolean
}

type Clock = { now(): number; delay(ms: number): Promise<void> }

const realClock: Clock = {
  now: () => Date.now(),
  delay: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}

/**
 * The state of a list that loads its next page when the reader nears its end.
 *
 * - ready → loading → ready (more pages) | complete (no more) | error (Retry goes back to loading)
 * - a load takes at least the minimum fetch delay, so a fast answer does not flicker;
 * - the loop check: if loads were triggered 10 times within 1000 ms (a page that never
 *   fills the screen, or a broken cursor), automatic loading stops until the reader asks.
 */
export class InfiniteLoader<T> {
  private snapshot: InfiniteSnapshot<T>
  private cursor: string | null
  private recentCalls: number[] = []
  private readonly listeners = new Set<() => void>()
  private readonly fetchPage: (cursor: string) => Promise<PageResult<T>>
  private readonly clock: Clock
  private readonly minFetchDelayMs: number

  constructor(
    first: PageResult<T>,
    fetchPage: (cursor: string) => Promise<PageResult<T>>,
    options: { clock?: Clock; minFetchDelayMs?: number } = {},
  ) {
    this.fetchPage = fetchPage
    this.clock = options.clock ?? realClock
    this.minFetchDelayMs = options.minFetchDelayMs ?? INFINITE_SCROLL.minFetchDelayMs
    this.cursor = first.nextCursor
    this.snapshot = {
      items: first.items,
      state: first.nextCursor === null ? 'complete' : 'ready',
      loopStopped: false,
    }
  }

  getSnapshot = (): InfiniteSnapshot<T> => this.snapshot

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Called when the end of the list comes within the trigger distance. */
  async trigger(): Promise<void> {
    if (this.snapshot.state !== 'ready' || this.snapshot.loopStopped) return
    const now = this.clock.now()
    this.recentCalls = this.recentCalls.filter((at) => now - at < INFINITE_SCROLL.loopCheckWindowMs)
    this.recentCalls.push(now)
    if (this.recentCalls.length >= INFINITE_SCROLL.loopCheckMaxCalls) {
      console.error(
        `InfiniteLoader: loading was triggered ${this.recentCalls.length} times within ${INFINITE_SCROLL.loopCheckWindowMs} ms; stopped until the reader asks for more.`,
      )
      this.set({ ...this.snapshot, loopStopped: true })
      return
    }
    await this.load()
  }

  /** The reader asked explicitly (Retry, or "load more" after the loop check stopped). */
  async retry(): Promise<void> {
    if (this.snapshot.state === 'loading' || this.snapshot.state === 'complete') return
    this.recentCalls = []
    this.set({ ...this.snapshot, loopStopped: false })
    await this.load()
  }

  private async load(): Promise<void> {
    const cursor = this.cursor
    if (cursor === null) return
    this.set({ ...this.snapshot, state: 'loading' })
    const [outcome] = await Promise.all([
      this.fetchPage(cursor).then(
        (page) => ({ page }),
        (error: unknown) => ({ error }),
      ),
      this.clock.delay(this.minFetchDelayMs),
    ])
    if ('error' in outcome) {
      this.set({ ...this.snapshot, state: 'error' })
      return
    }
    this.cursor = outcome.page.nextCursor
    this.set({
      ...this.snapshot,
      items: [...this.snapshot.items, ...outcome.page.items],
      state: outcome.page.nextCursor === null ? 'complete' : 'ready',
    })
  }

  private set(snapshot: InfiniteSnapshot<T>): void {
    this.snapshot = snapshot
    for (const listener of this.listeners) listener()
  }
}

/** Calls `run` at most once per `ms`, including a trailing call for the last event. */
export function throttle(run: () => void, ms: number): { (): void; cancel(): void } {
  let last = Number.NEGATIVE_INFINITY
  let trailing: ReturnType<typeof setTimeout> | undefined
  const throttled = () => {
    const wait = last + ms - Date.now()
    if (wait <= 0) {
      last = Date.now()
      run()
      return
    }
    trailing ??= setTimeout(() => {
      trailing = undefined
      last = Date.now()
      run()
    }, wait)
  }
  throttled.cancel = () => {
    clearTimeout(trailing)
    // Forget the cleared handle, or `??=` above would never schedule a trailing call again.
    trailing = undefined
  }
  return throttled
}
