import { describe, expect, it } from 'vitest'
import type { CodeRunRequest } from '#features/exercises/code-run.ts'
import { createCodeSandbox } from '#server/code-sandbox/sandbox.ts'

// The pool's fair queue with a real QuickJS worker behind it: learners take turns, and only the
// one past their share is refused, with a time to come back.
const settings = { javascriptWorkers: 1, pythonWorkers: 1, maxQueued: 16, maxWaitMs: 60_000 }
const request = (code: string, timeLimitMs = 3_000): CodeRunRequest => ({
  language: 'javascript',
  code,
  stdin: '',
  timeLimitMs,
})
/** A program that keeps its worker busy for about `ms`. */
const busyFor = (ms: number) => `const end = Date.now() + ${ms}; while (Date.now() < end) {}`

describe('the sandbox’s fair share', () => {
  it('serves a newcomer before the rest of a flooder’s runs', async () => {
    const sandbox = createCodeSandbox({ ...settings, queuedPerLearner: 8 })
    try {
      await sandbox.run(request('1'), { learner: 'warm-up' })
      const finished: string[] = []
      const track = (name: string, run: Promise<unknown>) =>
        run.then(() => {
          finished.push(name)
        })
      const runs = [1, 2, 3, 4].map((index) =>
        track(`flood-${index}`, sandbox.run(request(busyFor(200)), { learner: 'flooder' })),
      )
      runs.push(track('newcomer', sandbox.run(request('1'), { learner: 'newcomer' })))
      await Promise.all(runs)
      // The first flood run had the worker already; the newcomer's is next.
      expect(finished.slice(0, 2)).toEqual(['flood-1', 'newcomer'])
    } finally {
      await sandbox.close()
    }
  })

  it('refuses the learner past their run time with a retry time, and serves the others', async () => {
    const sandbox = createCodeSandbox({ ...settings, runSecondsPerLearnerPerMinute: 1 })
    try {
      const first = await sandbox.run(request(busyFor(1_200)), { learner: 'flooder' })
      expect(first.outcome).toBe('completed')
      const refused = await sandbox.run(request('console.log(1)'), { learner: 'flooder' })
      expect(refused).toMatchObject({ outcome: 'unavailable' })
      if (refused.outcome !== 'unavailable') throw new Error('not refused')
      expect(refused.retryAfterMs).toBeGreaterThanOrEqual(1_000)
      expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000)

      const other = await sandbox.run(request('console.log(2)'), { learner: 'other' })
      expect(other).toMatchObject({ outcome: 'completed', stdout: '2\n' })
      const verify = (learner: string) =>
        sandbox.verify(
          'question:1',
          { language: 'javascript', code: 'console.log(3)', timeLimitMs: 1_000 },
          [{ name: 't', stdin: '', expectedOutput: '3' }],
          { learner },
        )
      // A verification is the same learner's runs, on the same budget.
      const verdict = await verify('flooder')
      expect(verdict.passed).toBe(false)
      expect(verdict.outcomes[0]?.run).toMatchObject({ outcome: 'unavailable' })
      // The same code verified for someone else is judged on their share, not the flooder's.
      expect((await verify('other')).passed).toBe(true)
    } finally {
      await sandbox.close()
    }
  })
})
