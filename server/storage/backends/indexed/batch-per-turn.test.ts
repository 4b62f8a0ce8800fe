import { describe, expect, it } from 'vitest'
import { batchPerTurn } from './batch-per-turn.ts'

describe('batchPerTurn', () => {
  it('runs the items asked for in one turn together, and each caller gets its own outcome', async () => {
    const runs: string[][] = []
    const remove = batchPerTurn(async (items: string[]) => {
      runs.push(items)
      return new Map(
        items.filter((item) => item.startsWith('bad')).map((item) => [item, new Error(item)]),
      )
    })
    const outcomes = await Promise.allSettled(['a', 'bad-b', 'c'].map(remove))
    expect(runs).toEqual([['a', 'bad-b', 'c']])
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ])
    expect(outcomes[1]).toMatchObject({ reason: { message: 'bad-b' } })
    // A later turn is a batch of its own.
    await remove('d')
    expect(runs).toEqual([['a', 'bad-b', 'c'], ['d']])
  })

  it('fails every item of a batch whose run throws', async () => {
    const remove = batchPerTurn(async () => {
      throw new Error('engine unreachable')
    })
    const outcomes = await Promise.allSettled(['a', 'b'].map(remove))
    expect(outcomes).toEqual([
      { status: 'rejected', reason: new Error('engine unreachable') },
      { status: 'rejected', reason: new Error('engine unreachable') },
    ])
  })
})
