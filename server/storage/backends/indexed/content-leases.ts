import type { ContentStore } from './content-store.ts'

/**
 * Which content items readers still need. A one-item object's reader holds the item open, which
 * is its snapshot; a reader of an object kept as its parts' items opens them one at a time (an
 * object may have 10,000) and leases them instead. Removing a leased item waits until its last
 * reader lets go; a crash meanwhile leaves it to start-up recovery, as no row names it.
 */
export type ContentLeases = {
  /** Leases the items; the answer lets them go (calling it again does nothing). */
  take(items: readonly string[]): () => void
  /** Removes the items now, or those leased once they are let go. */
  remove(items: readonly string[]): Promise<void>
}

export function createContentLeases(files: ContentStore): ContentLeases {
  const readers = new Map<string, number>()
  const doomed = new Set<string>()
  return {
    take(items) {
      for (const item of items) readers.set(item, (readers.get(item) ?? 0) + 1)
      let released = false
      return () => {
        if (released) return
        released = true
        for (const item of items) {
          const left = (readers.get(item) ?? 1) - 1
          if (left > 0) {
            readers.set(item, left)
            continue
          }
          readers.delete(item)
          // Nobody waits for this removal; one that fails leaves the item to recovery.
          if (doomed.delete(item)) files.remove(item).catch(() => {})
        }
      }
    },
    async remove(items) {
      for (const item of items) {
        if (readers.has(item)) doomed.add(item)
        else await files.remove(item)
      }
    },
  }
}
