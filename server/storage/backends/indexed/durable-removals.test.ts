import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  openTemporaryContentFiles,
  putText as put,
} from '#server/storage/backends/fs/temporary-content-files.ts'
import type { ContentStore } from './content-store.ts'
import { withDurableRemovals } from './durable-removals.ts'

let disk: Awaited<ReturnType<typeof openTemporaryContentFiles>>
let files: ContentStore
/** What happened, in order: durability points and removals. */
let events: string[]

beforeEach(async () => {
  disk = await openTemporaryContentFiles()
  events = []
  files = {
    ...disk.files,
    async remove(id) {
      events.push(`remove ${id}`)
      await disk.files.remove(id)
    },
  }
})

afterEach(() => disk.remove())

const exists = (id: string) => disk.exists(id)

describe('removals once the index is durable', () => {
  it('removes nothing when asked, and everything asked for after one durability point', async () => {
    let points = 0
    const removals = withDurableRemovals(
      files,
      async () => {
        events.push(`durable ${++points}`)
      },
      60_000,
    )
    const a = await put(removals, 'a')
    const b = await put(removals, 'b')
    await removals.remove(a)
    await removals.remove(b)
    expect(exists(a) && exists(b)).toBe(true)
    await removals.settle()
    expect(exists(a) || exists(b)).toBe(false)
    expect(events).toEqual(['durable 1', `remove ${a}`, `remove ${b}`])
    // Nothing waiting: no durability point needed.
    await removals.settle()
    expect(points).toBe(1)
  })

  it('keeps the items while the index cannot be made durable, and removes them later', async () => {
    let failing = true
    const removals = withDurableRemovals(
      files,
      async () => {
        if (failing) throw new Error('checkpoint incomplete')
      },
      60_000,
    )
    const id = await put(removals, 'kept')
    await removals.remove(id)
    await removals.settle()
    expect(exists(id)).toBe(true)
    failing = false
    await removals.settle()
    expect(exists(id)).toBe(false)
  })

  it('stops trying once closed, leaving what it could not remove to recovery', async () => {
    let attempts = 0
    const removals = withDurableRemovals(
      files,
      async () => {
        attempts++
        throw new Error('the database is closed')
      },
      5,
    )
    const id = await put(removals, 'left')
    await removals.remove(id)
    await removals.close()
    const closedAfter = attempts
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(attempts).toBe(closedAfter)
    expect(exists(id)).toBe(true)
  })

  it('removes on its own after the delay, and on close', async () => {
    const removals = withDurableRemovals(files, async () => {}, 20)
    const soon = await put(removals, 'soon')
    await removals.remove(soon)
    await vi.waitFor(() => expect(exists(soon)).toBe(false))
    const late = withDurableRemovals(files, async () => {}, 60_000)
    const last = await put(late, 'last')
    await late.remove(last)
    await late.close()
    expect(exists(last)).toBe(false)
  })
})
