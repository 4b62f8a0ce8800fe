import { describe, expect, it } from 'vitest'
import type { CodeRunResult, TestOutcome } from '#features/exercises/code-run.ts'
import { questionBody } from '#features/exercises/question-input.ts'
import { codeFeedback, messageOf, referenceTestReports } from './answers.server.ts'

// What a learner is told of a code submission (decision 046): visible tests in full, hidden ones
// only as a count that no per-test detail (order, name, outcome, time) can be read from.

const parsed = questionBody.parse({
  kind: 'code',
  language: 'python',
  referenceSolution: 'print(int(input()) * 2)',
  timeLimitMs: 1_000,
  tests: [
    { name: 'ひみつA', stdin: 'SECRET-A', expectedOutput: 'A', hidden: true },
    { name: '例 1', stdin: '1', expectedOutput: '2' },
    { name: 'ひみつB', stdin: 'SECRET-B', expectedOutput: 'B', hidden: true },
    { name: 'ひみつC', stdin: 'SECRET-C', expectedOutput: 'C', hidden: true },
  ],
})
if (parsed.kind !== 'code') throw new Error('not a code question')
const body = parsed

const completed = (stdout: string, durationMs = 5): CodeRunResult => ({
  outcome: 'completed',
  stdout,
  stderr: '',
  durationMs,
})
const timeout: CodeRunResult = { outcome: 'timeout', stdout: '', stderr: '', durationMs: 1_000 }
const crashed: CodeRunResult = {
  outcome: 'error',
  stdout: 'partial',
  stderr: 'Traceback',
  durationMs: 3,
  error: { message: 'ValueError: SECRET-B', line: 1 },
}

/** Outcomes aligned with the tests: `passed` per test, a run per test, undefined for not run. */
function outcomesOf(runs: (readonly [boolean, CodeRunResult] | undefined)[]) {
  return runs.map((entry, index): TestOutcome | undefined =>
    entry ? { name: body.tests[index]?.name ?? '', passed: entry[0], run: entry[1] } : undefined,
  )
}

describe('a learner’s feedback on a code submission', () => {
  it('reports visible tests in full and hidden ones only as a count, without time or order', () => {
    const feedback = codeFeedback(
      body,
      outcomesOf([
        [true, completed('A', 7)],
        [true, completed('2\n', 9)],
        [false, completed('wrong', 800)],
        [true, completed('C', 1)],
      ]),
    )
    expect(feedback).toEqual({
      kind: 'code',
      tests: [
        {
          name: '例 1',
          passed: true,
          outcome: 'completed',
          stdout: '2\n',
          stderr: '',
          error: null,
          message: null,
        },
      ],
      hiddenTests: { total: 3, passed: 2, allPassed: false, message: null },
    })
    const sent = JSON.stringify(feedback)
    for (const secret of ['ひみつ', 'SECRET', 'wrong', 'durationMs', '800', '"hidden"']) {
      expect(sent).not.toContain(secret)
    }
  })

  it('says the same whichever hidden test failed, however it failed and however long it took', () => {
    const failing = [
      outcomesOf([
        [false, crashed],
        [true, completed('2')],
        [true, completed('B', 1)],
        [true, completed('C', 1)],
      ]),
      outcomesOf([
        [true, completed('A', 900)],
        [true, completed('2')],
        [false, completed('', 2)],
        [true, completed('C', 3)],
      ]),
      outcomesOf([
        [true, completed('A')],
        [true, completed('2')],
        [true, completed('B')],
        [false, { ...completed('x'.repeat(70_000)), outcome: 'output-limit' }],
      ]),
    ]
    const told = failing.map((outcomes) => codeFeedback(body, outcomes))
    expect(told[1]).toEqual(told[0])
    expect(told[2]).toEqual(told[0])
    expect(told[0]?.hiddenTests).toEqual({ total: 3, passed: 2, allPassed: false, message: null })
  })

  it('gives no count when a hidden test hit the time limit: the count would say which one looped', () => {
    // The verifier stops at the first timeout; visible tests run before hidden ones, so only
    // hidden tests can be left unrun by a hidden timeout.
    const loopsAt = (position: 0 | 2 | 3) =>
      outcomesOf(
        body.tests.map((test, index) => {
          if (!test.hidden) return [true, completed('2')] as const
          if (index < position) return [true, completed(test.expectedOutput)] as const
          if (index === position) return [false, timeout] as const
          return undefined
        }),
      )
    const told = ([0, 2, 3] as const).map((position) => codeFeedback(body, loopsAt(position)))
    expect(told[1]).toEqual(told[0])
    expect(told[2]).toEqual(told[0])
    expect(told[0]?.hiddenTests).toEqual({
      total: 3,
      passed: null,
      allPassed: false,
      message:
        '非公開テストの一部が制限時間（1 秒）内に終わりませんでした。無限ループになっていないか確かめてください。',
    })
    expect(messageOf({ correct: false, feedback: told[0] ?? codeFeedback(body, []) })).toBe(
      '不正解です。例 1 件中 1 件に合格しました。非公開テストの一部が制限時間（1 秒）内に終わりませんでした。無限ループになっていないか確かめてください。',
    )
  })

  it('says the hidden tests did not run when a visible test hit the time limit', () => {
    const feedback = codeFeedback(body, outcomesOf([undefined, [false, timeout]]))
    expect(feedback.tests[0]).toMatchObject({ outcome: 'timeout', message: expect.any(String) })
    expect(feedback.hiddenTests).toEqual({
      total: 3,
      passed: null,
      allPassed: false,
      message: '例のテストが制限時間を超えたため、非公開テストは実行していません。',
    })
  })

  it('says when every hidden test passed, and counts all tests in the summary', () => {
    const passing = codeFeedback(
      body,
      outcomesOf(body.tests.map((test) => [true, completed(test.expectedOutput)] as const)),
    )
    expect(passing.hiddenTests).toEqual({ total: 3, passed: 3, allPassed: true, message: null })
    const oneWrong = codeFeedback(
      body,
      outcomesOf([
        [true, completed('A')],
        [false, completed('3')],
        [true, completed('B')],
        [true, completed('C')],
      ]),
    )
    expect(messageOf({ correct: false, feedback: oneWrong })).toBe(
      '不正解です。4 件中 3 件のテストに合格しました',
    )
  })

  it('shows the author checking their reference solution every test in full', () => {
    const reports = referenceTestReports(
      body,
      outcomesOf([[false, crashed], [true, completed('2\n', 9)], [false, timeout], undefined]),
    )
    expect(reports.map((report) => [report.name, report.hidden, report.outcome])).toEqual([
      ['ひみつA', true, 'error'],
      ['例 1', false, 'completed'],
      ['ひみつB', true, 'timeout'],
      ['ひみつC', true, 'skipped'],
    ])
    expect(reports[0]).toMatchObject({
      stdout: 'partial',
      stderr: 'Traceback',
      error: { message: 'ValueError: SECRET-B', line: 1 },
      durationMs: 3,
    })
  })
})
