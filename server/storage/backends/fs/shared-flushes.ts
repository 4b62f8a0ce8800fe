/**
 * Runs `flush` for each caller, sharing runs between callers: a run that starts after a caller
 * asked covers whatever that caller did before asking (a directory flush covers every entry
 * made before it began). Callers arriving while a run is under way wait for the next one, which
 * starts when the current one ends and serves all of them, so concurrent writers pay about one
 * run per round instead of one each, and never get a run that began before they asked.
 */
export function sharedFlushes(flush: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined
  let queued: Promise<void> | undefined
  const start = () => {
    running = flush().finally(() => {
      running = undefined
    })
    return running
  }
  return () => {
    if (queued) return queued
    if (!running) return start()
    queued = running
      .catch(() => {})
      .then(() => {
        queued = undefined
        return start()
      })
    return queued
  }
}
