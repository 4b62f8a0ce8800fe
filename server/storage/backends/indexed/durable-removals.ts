import type { ContentStore } from './content-store.ts'

/** How long removals gather before one durability point serves them all. */
const DEFAULT_DELAY_MS = 1_000

export type DurableRemovals = ContentStore & {
  /**
   * Makes the index durable and removes every item asked for before this call; if it cannot be
   * made durable now, they wait for a later round.
   */
  settle(): Promise<void>
}

/**
 * Removes content items only once the index transactions that stopped naming them survive a
 * power loss (docs/decisions/010). SQLite commits reach the disk at checkpoints; removing the
 * content of a replaced or deleted object at once could leave, after a power loss, a row
 * restored from before the commit naming bytes already gone. Removals wait here, gathered for
 * `delayMs`, then one `durable()` call serves them all; the request that asked does not wait.
 * Items waiting when the process dies are named by no row, and start-up recovery removes them.
 */
export function withDurableRemovals(
  store: ContentStore,
  durable: () => Promise<void>,
  delayMs = DEFAULT_DELAY_MS,
): DurableRemovals {
  let waiting = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  let closed = false
  // Rounds run one at a time, each after the one before.
  let rounds: Promise<void> = Promise.resolve()

  const round = () => {
    if (timer) clearTimeout(timer)
    timer = undefined
    const items = waiting
    waiting = new Set()
    rounds = rounds.then(async () => {
      if (items.size === 0) return
      try {
        await durable()
      } catch {
        // Not durable yet: these wait for the next round.
        for (const item of items) waiting.add(item)
        schedule()
        return
      }
      // Asked for all at once, so that a store can remove them together (batch-per-turn.ts: one
      // message to the disk store's removal thread, one DeleteObjects per thousand on S3). One that
      // fails leaves an item no row names, which recovery removes.
      await Promise.all([...items].map((item) => store.remove(item).catch(() => {})))
    })
    return rounds
  }

  const schedule = () => {
    // Once closed, what could not be removed is left to start-up recovery.
    if (!closed) timer ??= setTimeout(round, delayMs).unref()
  }

  return {
    ...store,
    async remove(id) {
      waiting.add(id)
      schedule()
    },
    settle: round,
    async close() {
      closed = true
      await round()
      await store.close()
    },
  }
}
