/** The seed: a failed script-chunk load reloads the page, at most once per minute. */
export const CHUNK_RELOAD_INTERVAL_MS = 60_000
const STORAGE_KEY = 'techlab:chunk-reload-at'

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : ''
  return CHUNK_ERROR.test(message)
}

/** Whether a reload is allowed now, given when the last one happened (if ever). */
export function mayReload(now: number, lastReloadAt: number | null): boolean {
  return lastReloadAt === null || now - lastReloadAt >= CHUNK_RELOAD_INTERVAL_MS
}

type Store = Pick<Storage, 'getItem' | 'setItem'>

/**
 * Reloads the page to pick up a new deployment's chunks, unless it already did so within
 * the last minute (then the failure is real and reloading again would loop).
 */
export function reloadOnceAfterChunkError(
  store: Store,
  reload: () => void,
  now: number = Date.now(),
): boolean {
  const last = Number(store.getItem(STORAGE_KEY))
  if (!mayReload(now, Number.isFinite(last) && last > 0 ? last : null)) return false
  store.setItem(STORAGE_KEY, String(now))
  reload()
  return true
}
