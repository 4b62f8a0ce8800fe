import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)

// Keeps a heap of some size, as the site does, then goes through 1 GiB of 64 KiB buffers one at a
// time, as request bodies do, and prints how many full collections that started.
const probe = (tuned: boolean) => `
${tuned ? `await import(${JSON.stringify(new URL('./gc-tuning.ts', import.meta.url).href)})` : ''}
const { PerformanceObserver, constants } = await import('node:perf_hooks')
const kept = Array.from({ length: 300_000 }, (_, i) => ({ i, text: 'item ' + i }))
let full = 0
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++
})
observer.observe({ entryTypes: ['gc'] })
for (let round = 0; round < 16_384; round++) {
  Buffer.allocUnsafeSlow(64 * 1024)[0] = round
  if (round % 128 === 0) await new Promise((resolve) => setImmediate(resolve))
}
await new Promise((resolve) => setTimeout(resolve, 50))
observer.disconnect()
console.log(full, kept.length)
`

async function fullCollections(tuned: boolean): Promise<number> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', probe(tuned)])
  return Number(stdout.split(' ')[0])
}

describe('garbage collection tuning', () => {
  it('collects far less often while short-lived buffers come and go', async () => {
    const [plain, tuned] = await Promise.all([fullCollections(false), fullCollections(true)])
    expect(plain).toBeGreaterThanOrEqual(6)
    expect(tuned).toBeLessThan(plain / 3)
  })
})
