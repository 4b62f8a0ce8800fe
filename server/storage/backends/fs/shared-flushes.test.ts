import { describe, expect, it } from 'vitest'
import { sharedFlushes } from './shared-flushes.ts'

/** A flush that records when each run starts and ends, and ends only when told to. */
function recordedFlush() {
  const events: string[] = []
  const pending: { finish: (error?: Error) => void }[] = []
  let runs = 0
  const flush = () => {
    const run = ++runs
    events.push(`start ${run}`)
    return new Promise<void>((resolve, reject) => {
      pending.push({
        finish: (error) => {
          events.push(`end ${run}`)
          if (error) reject(error)
          else resolve()
        },
      })
    })
  }
  const finishNext = async (error?: Error) => {
    pending.shift()?.finish(error)
    // Let the settled run's callbacks (and the next run's start) happen.
    for (let i = 0; i < 5; i++) await Promise.resolve()
  }
  return { flush, events, finishNext, runs: () => runs }
}

describe('sharedFlushes', () => {
  it('runs at once when idle, and once more for everyone who asked during a run', async () => {
    const recorded = recordedFlush()
    const flushed = sharedFlushes(recorded.flush)
    const done: string[] = []
    const first = flushed().then(() => done.push('first'))
    const during = [flushed(), flushed(), flushed()].map((promise, index) =>
      promise.then(() => done.push(`during ${index}`)),
    )
    expect(recorded.runs()).toBe(1)
    await recorded.finishNext()
    await first
    // Callers who arrived during run 1 are not served by it: it may have begun before them.
    expect(done).toEqual(['first'])
    expect(recorded.events).toEqual(['start 1', 'end 1', 'start 2'])
    await recorded.finishNext()
    await Promise.all(during)
    expect(done).toEqual(['first', 'during 0', 'during 1', 'during 2'])
    expect(recorded.runs()).toBe(2)
  })

  it('starts afresh for a caller after the last run ended', async () => {
    const recorded = recordedFlush()
    const flushed = sharedFlushes(recorded.flush)
    const first = flushed()
    await recorded.finishNext()
    await first
    const second = flushed()
    expect(recorded.runs()).toBe(2)
    await recorded.finishNext()
    await second
    expect(recorded.events).toEqual(['start 1', 'end 1', 'start 2', 'end 2'])
  })

  it('fails the callers a failed run served, and runs again for the ones waiting', async () => {
    const recorded = recordedFlush()
    const flushed = sharedFlushes(recorded.flush)
    const first = flushed()
    const waiting = flushed()
    await recorded.finishNext(new Error('disk'))
    await expect(first).rejects.toThrow('disk')
    expect(recorded.runs()).toBe(2)
    await recorded.finishNext()
    await expect(waiting).resolves.toBeUndefined()
  })
})
