import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openContentFiles } from '../fs/content-files.ts'
import type { ContentStore } from './content-store.ts'
import { withDurableRemovals } from './durable-removals.ts'

let directory: string
let files: ContentStore
/** What happened, in order: durability points and removals. */
let events: string[]

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'durable-removals-'))
  const disk = await openContentFiles(directory, { fsync: false })
  events = []
  files = {
    ...disk,
    async remove(id) {
      events.push(`remove ${id}`)
      await disk.remove(id)
    },
  }
})

afterEach(async () => {
  await rm(directory, { recursive: true, force: true })
})

const put = async (store: ContentStore, text: string) =>
  (await store.write(Readable.from([Buffer.from(text)]))).fileId
const exists = (id: string) => existsSync(path.join(directory, 'content', id))

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
