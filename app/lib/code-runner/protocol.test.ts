import { describe, expect, it } from 'vitest'
import { MAX_OUTPUT_BYTES } from '#features/exercises/code-run.ts'
import { parseWorkerMessage } from './protocol.ts'

describe('parseWorkerMessage', () => {
  it('takes the shapes a runner worker sends', () => {
    expect(parseWorkerMessage({ type: 'output', stream: 'stdout', text: 'hi\n' })).toEqual({
      type: 'output',
      stream: 'stdout',
      text: 'hi\n',
    })
    expect(
      parseWorkerMessage({
        type: 'done',
        outcome: 'error',
        durationMs: 3,
        error: { message: 'E', line: 2 },
      }),
    ).toEqual({ type: 'done', outcome: 'error', durationMs: 3, error: { message: 'E', line: 2 } })
    expect(parseWorkerMessage({ type: 'ready', stats: { loadMs: 5, transferBytes: 0 } })).toEqual({
      type: 'ready',
      stats: { loadMs: 5, transferBytes: 0 },
    })
  })

  it('ignores anything else (code that is not ours runs in the worker)', () => {
    for (const data of [
      null,
      'done',
      { type: 'eval', code: 'alert(1)' },
      { type: 'output', stream: 'dom', text: 'x' },
      { type: 'output', stream: 'stdout', text: 'x'.repeat(MAX_OUTPUT_BYTES + 2) },
      { type: 'done', outcome: 'completed', durationMs: -1 },
      { type: 'done', outcome: 'error', durationMs: 1 },
      { type: 'progress', loaded: '1', total: 2 },
    ]) {
      expect(parseWorkerMessage(data)).toBeUndefined()
    }
  })
})
