import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { CodeRunRequest, CodeTest } from '#features/exercises/code-run.ts'
import { createCodeSandbox } from '#server/code-sandbox/sandbox.ts'

// The pool and the verdict cache, with the real QuickJS workers behind them.
const settings = { javascriptWorkers: 1, pythonWorkers: 1, maxQueued: 8, maxWaitMs: 30_000 }
const request = (code: string, timeLimitMs = 2_000): CodeRunRequest => ({
  language: 'javascript',
  code,
  stdin: '',
  timeLimitMs,
})

/** This process's child processes (Linux), from every thread's list. */
function childProcesses(): string[] {
  const tasks = `/proc/${process.pid}/task`
  if (!existsSync(tasks)) return []
  return readdirSync(tasks).flatMap((task) => {
    const file = `${tasks}/${task}/children`
    return existsSync(file) ? readFileSync(file, 'utf8').split(' ').filter(Boolean) : []
  })
}

describe('the code sandbox pool', () => {
  it('answers unavailable at once when the queue is full', async () => {
    const sandbox = createCodeSandbox({ ...settings, maxQueued: 1 })
    try {
      // The worker is still loading: the first run waits in the queue, the second finds it full.
      const first = sandbox.run(request('console.log("first")'))
      const second = await sandbox.run(request('console.log("second")'))
      expect(second).toMatchObject({
        outcome: 'unavailable',
        reason: expect.stringMatching(/waiting/),
      })
      expect(await first).toMatchObject({ outcome: 'completed', stdout: 'first\n' })
    } finally {
      await sandbox.close()
    }
  })

  it('answers unavailable when no worker is free within the wait limit', async () => {
    const sandbox = createCodeSandbox({ ...settings, maxWaitMs: 1_500 })
    try {
      await sandbox.run(request('1'))
      const busy = sandbox.run(request('while (true) {}', 3_000))
      const waiting = await sandbox.run(request('console.log("late")'))
      expect(waiting).toMatchObject({
        outcome: 'unavailable',
        reason: expect.stringMatching(/1500 ms/),
      })
      expect((await busy).outcome).toBe('timeout')
    } finally {
      await sandbox.close()
    }
  })

  it('judges a submission once: the same code for the same revision is a cache hit', async () => {
    const sandbox = createCodeSandbox(settings)
    try {
      const tests: CodeTest[] = [
        { name: '例 1', stdin: '2\n3\n', expectedOutput: '5\n' },
        { name: '隠し 1', stdin: '10\n-4\n', expectedOutput: '6' },
      ]
      const code = 'console.log(Number(input()) + Number(input()))'
      const submission = { language: 'javascript' as const, code, timeLimitMs: 2_000 }
      const first = await sandbox.verify('q1@3', submission, tests)
      expect(first).toMatchObject({ passed: true, cached: false })
      expect(sandbox.stats().javascript.runs).toBe(2)

      const again = await sandbox.verify('q1@3', submission, tests)
      expect(again).toMatchObject({ passed: true, cached: true })
      expect(again.outcomes).toEqual(first.outcomes)
      expect(sandbox.stats().javascript.runs).toBe(2)
      expect(sandbox.stats().cache).toMatchObject({ entries: 1, hits: 1, misses: 1 })

      // Another revision, or other code, is judged anew.
      const wrong = await sandbox.verify('q1@3', { ...submission, code: 'console.log(5)' }, tests)
      expect(wrong).toMatchObject({ passed: false, cached: false })
      expect(wrong.outcomes.map((outcome) => outcome.passed)).toEqual([true, false])
      expect((await sandbox.verify('q1@4', submission, tests)).cached).toBe(false)
      expect(sandbox.stats().javascript.runs).toBe(6)

      // A timeout depends on the moment: not kept.
      const slow = { ...submission, code: 'while (true) {}', timeLimitMs: 500 }
      await sandbox.verify('q1@3', slow, tests.slice(0, 1))
      expect((await sandbox.verify('q1@3', slow, tests.slice(0, 1))).cached).toBe(false)
    } finally {
      await sandbox.close()
    }
  })

  it('close() ends every child process and answers what was waiting', async () => {
    const before = childProcesses()
    const sandbox = createCodeSandbox(settings)
    expect(sandbox.stats().python.workers).toBe(0)
    sandbox.warm('python')
    expect(sandbox.stats().python.workers).toBe(1)
    await sandbox.run(request('1'))
    await sandbox.run({ ...request('print(1)'), language: 'python' })
    expect(sandbox.stats().javascript.workers).toBe(1)
    expect(sandbox.stats().python.workers).toBe(1)
    const running = sandbox.run(request('while (true) {}', 5_000))
    const queued = sandbox.run(request('console.log("queued")'))
    await sandbox.close()
    expect(await running).toMatchObject({ outcome: 'unavailable' })
    expect(await queued).toMatchObject({ outcome: 'unavailable' })
    expect(sandbox.stats().javascript).toMatchObject({ workers: 0, busy: 0, queued: 0 })
    expect(sandbox.stats().python).toMatchObject({ workers: 0, busy: 0, queued: 0 })
    expect(childProcesses().filter((pid) => !before.includes(pid))).toEqual([])
    expect(await sandbox.run(request('1'))).toMatchObject({ outcome: 'unavailable' })
  }, 120_000)
})
