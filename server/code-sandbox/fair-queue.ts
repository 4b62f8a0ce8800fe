// The sandbox's waiting room (docs/decisions/045): runs wait in one FIFO per learner, and the
// learners take turns, the one who used the least run time lately first, so that one learner's
// flood waits behind everyone else's next run rather than in front of it. Each learner has a
// budget of run time in a sliding window and of runs waiting; whoever is past theirs is told to
// come back later (over share), their waiting runs included, and nobody else is.
// Plain data and an injectable clock: no timers, no workers, so it is tested on its own.

export type FairQueueOptions = {
  /** Run time one learner may use in any window before being over share. */
  runMsPerWindow: number
  /** Runs one learner may have waiting at once. */
  queuedPerLearner: number
  /** Runs waiting in all, every learner together. */
  maxQueued: number
  /** Runs served at once (the pool's workers): only to estimate a retry time. */
  parallelism: number
  windowMs?: number
  now?: () => number
}

/** A learner past their share, and when they may expect to be served again. */
export type OverShare = { retryAfterMs: number }

/**
 * A run taken in (perhaps in place of another learner's, `evicted`), or refused: its learner is
 * over share, or everything is full and nobody is further over their share than they are.
 */
export type Admission<T> =
  | { accepted: true; evicted?: { item: T; retryAfterMs: number } }
  | { accepted: false; reason: 'over-share' | 'full'; retryAfterMs: number }

/** A run handed out by `next`: `done` when it ends, to count its time against its learner. */
export type Served<T> = { learner: string | undefined; item: T; done: () => void }

type Waiting<T> = { item: T; costMs: number }

type Learner<T> = {
  key: string | undefined
  queue: Waiting<T>[]
  /** When this learner was last served (a turn number; -1: never), for the round robin. */
  lastTurn: number
  /** When it joined (a turn number): who came first among those never served. */
  joined: number
  /** Ended runs still inside the window, as [start, end] times. */
  used: [number, number][]
  /** Start times of runs under way, counted up to now. */
  running: number[]
  /** Refused for run time until then: the retry time they were given (0: not refused). */
  refusedUntil: number
}

const WINDOW_MS = 60_000

/**
 * Runs waiting, per learner, served in turns. A learner key of `undefined` (the server's own
 * runs: tests, benchmarks) has no budget and no cap of its own but takes turns like a learner;
 * everything that runs for a person passes their key.
 */
export function createFairQueue<T>(options: FairQueueOptions) {
  // Long by design: a factory whose returned methods share its private state; each method is short.
  const now = options.now ?? Date.now
  const windowMs = options.windowMs ?? WINDOW_MS
  const learners = new Map<string | undefined, Learner<T>>()
  let turn = 0
  let size = 0
  let lastSweep = Number.NEGATIVE_INFINITY

  const learnerOf = (key: string | undefined): Learner<T> => {
    let learner = learners.get(key)
    if (!learner) {
      learner = {
        key,
        queue: [],
        lastTurn: -1,
        joined: turn++,
        used: [],
        running: [],
        refusedUntil: 0,
      }
      learners.set(key, learner)
    }
    return learner
  }

  /** Run time of `learner` inside the window ending at `at`, runs under way counted to now. */
  const usedAt = (learner: Learner<T>, at: number): number => {
    const from = at - windowMs
    const current = now()
    let total = 0
    for (const [start, end] of learner.used) total += Math.max(0, end - Math.max(start, from))
    for (const start of learner.running) total += Math.max(0, current - Math.max(start, from))
    return total
  }

  const wholeSeconds = (ms: number) => Math.ceil(ms / 1_000) * 1_000

  /**
   * How long the learner is refused for run time (0: not). Past the budget, until half of it
   * has slid out of the window: a flooder comes back to a share worth using, not to a trickle
   * of runs at the edge of the budget. The time is kept, so that it is the Retry-After told.
   */
  const budgetWait = (learner: Learner<T>): number => {
    if (learner.key === undefined) return 0
    const start = now()
    if (start < learner.refusedUntil) return learner.refusedUntil - start
    if (usedAt(learner, start) < options.runMsPerWindow) return 0
    const enough = options.runMsPerWindow / 2
    let low = 0
    let high = windowMs
    while (low < high) {
      const middle = Math.floor((low + high) / 2)
      if (usedAt(learner, start + middle) < enough) high = middle
      else low = middle + 1
    }
    const wait = wholeSeconds(Math.max(1_000, low))
    learner.refusedUntil = start + wait
    return wait
  }

  const overBudget = (learner: Learner<T>): boolean => budgetWait(learner) > 0

  /** A guess at when one of the learner's waiting runs will have left: a round per run ahead. */
  const queueWait = (learner: Learner<T>): number => {
    const head = learner.queue[0]
    if (!head) return 0
    let waitingLearners = 0
    for (const other of learners.values()) if (other.queue.length > 0) waitingLearners++
    return Math.ceil((head.costMs * waitingLearners) / Math.max(1, options.parallelism))
  }

  /** In whole seconds, as Retry-After says it. */
  const retryAfter = (learner: Learner<T>): number => {
    return wholeSeconds(
      Math.min(windowMs, Math.max(1_000, budgetWait(learner), queueWait(learner))),
    )
  }

  const overShareOf = (learner: Learner<T>): OverShare | undefined => {
    if (learner.key === undefined) return undefined
    const full = learner.queue.length >= options.queuedPerLearner
    if (!full && !overBudget(learner)) return undefined
    return { retryAfterMs: retryAfter(learner) }
  }

  /** Forgets learners with nothing waiting, nothing running and nothing left in the window. */
  const sweep = () => {
    const current = now()
    if (current - lastSweep < 1_000) return
    lastSweep = current
    for (const [key, learner] of learners) {
      learner.used = learner.used.filter(([, end]) => end > current - windowMs)
      const idle = learner.queue.length === 0 && learner.running.length === 0
      if (idle && learner.used.length === 0 && learner.refusedUntil <= current) learners.delete(key)
    }
  }

  /**
   * The learner whose newest waiting run makes room for another learner's when all is full:
   * one over budget first, else the longest queue, if it is at least two longer than `than`'s
   * (so that taking one from it never leaves it shorter than the newcomer's).
   */
  const victimFor = (than: Learner<T>): Learner<T> | undefined => {
    let victim: Learner<T> | undefined
    let victimOver = false
    for (const learner of learners.values()) {
      if (learner === than || learner.queue.length === 0) continue
      const over = overBudget(learner)
      const better =
        !victim ||
        (over && !victimOver) ||
        (over === victimOver && learner.queue.length > victim.queue.length)
      if (better) {
        victim = learner
        victimOver = over
      }
    }
    if (!victim) return undefined
    if (victimOver || victim.queue.length >= than.queue.length + 2) return victim
    return undefined
  }

  /** Counts a run of `learner` as under way from now; the function returned ends it. */
  const runFor = (learner: Learner<T>): (() => void) => {
    const start = now()
    learner.running.push(start)
    let ended = false
    return () => {
      if (ended) return
      ended = true
      learner.running.splice(learner.running.indexOf(start), 1)
      learner.used.push([start, Math.max(start, now())])
    }
  }

  return {
    /**
     * Adds a run of `learner` that may take up to `costMs`. Refused when the learner is over
     * share; when everything is full, another learner's newest run may be pushed out instead
     * (`evicted`, to be answered over share), or else this one is refused.
     */
    push(learner: string | undefined, item: T, costMs: number): Admission<T> {
      sweep()
      const own = learnerOf(learner)
      const over = overShareOf(own)
      if (over) return { accepted: false, reason: 'over-share', retryAfterMs: over.retryAfterMs }
      let evicted: { item: T; retryAfterMs: number } | undefined
      if (size >= options.maxQueued) {
        const victim = victimFor(own)
        if (!victim) return { accepted: false, reason: 'full', retryAfterMs: retryAfter(own) }
        const pushedOut = victim.queue.pop() as Waiting<T>
        size--
        evicted = { item: pushedOut.item, retryAfterMs: retryAfter(victim) }
      }
      own.queue.push({ item, costMs })
      size++
      return evicted ? { accepted: true, evicted } : { accepted: true }
    },

    /**
     * Takes out the waiting runs of learners now past their run-time budget, to be answered
     * over share: a flooder's backlog does not hold a worker that others may need next.
     */
    overShareWaiting(): { item: T; retryAfterMs: number }[] {
      const refused: { item: T; retryAfterMs: number }[] = []
      for (const learner of learners.values()) {
        if (learner.queue.length === 0 || !overBudget(learner)) continue
        const retryAfterMs = retryAfter(learner)
        const taken = learner.queue.splice(0)
        size -= taken.length
        for (const waiting of taken) refused.push({ item: waiting.item, retryAfterMs })
      }
      return refused
    },

    /**
     * The next run to start, counted as running from now: of the learners waiting, the one who
     * used the least run time in the window, and of equals the one served longest ago (a
     * round robin when all are alike; a newcomer goes first).
     */
    next(): Served<T> | undefined {
      const current = now()
      let chosen: Learner<T> | undefined
      let chosenUsed = 0
      for (const learner of learners.values()) {
        if (learner.queue.length === 0) continue
        const used = usedAt(learner, current)
        const better =
          !chosen ||
          used < chosenUsed ||
          (used === chosenUsed &&
            (learner.lastTurn < chosen.lastTurn ||
              (learner.lastTurn === chosen.lastTurn && learner.joined < chosen.joined)))
        if (better) {
          chosen = learner
          chosenUsed = used
        }
      }
      if (!chosen) return undefined
      const learner = chosen
      const { item } = learner.queue.shift() as Waiting<T>
      size--
      learner.lastTurn = turn++
      return { learner: learner.key, item, done: runFor(learner) }
    },

    /** Counts `ms` of work done for `learner` just now (a child started for them) as used. */
    charge(learner: string | undefined, ms: number) {
      if (ms <= 0) return
      const current = now()
      learnerOf(learner).used.push([current - ms, current])
    },

    /**
     * A run of `learner` that starts now without having waited here (a submission's next test,
     * on the child its first test had): counted like the others; `done` when it ends.
     */
    started(learner: string | undefined): () => void {
      return runFor(learnerOf(learner))
    },

    /** Takes a waiting run out (it waited too long); false when it is not waiting. */
    remove(item: T): boolean {
      for (const learner of learners.values()) {
        const index = learner.queue.findIndex((waiting) => waiting.item === item)
        if (index >= 0) {
          learner.queue.splice(index, 1)
          size--
          return true
        }
      }
      return false
    },

    /** Every waiting run, taken out (the pool closes or cannot start). */
    drain(): T[] {
      const items: T[] = []
      for (const learner of learners.values()) {
        for (const waiting of learner.queue.splice(0)) items.push(waiting.item)
      }
      size = 0
      return items
    },

    /** Whether `learner` is past their share now, and when to try again if so. */
    overShare(learner: string | undefined): OverShare | undefined {
      const known = learners.get(learner)
      return known ? overShareOf(known) : undefined
    },

    /** Run time `learner` used in the window up to now (runs under way included). */
    usedMs(learner: string | undefined): number {
      const known = learners.get(learner)
      return known ? usedAt(known, now()) : 0
    },

    queuedOf(learner: string | undefined): number {
      return learners.get(learner)?.queue.length ?? 0
    },

    get size(): number {
      return size
    },
  }
}

export type FairQueue<T> = ReturnType<typeof createFairQueue<T>>
