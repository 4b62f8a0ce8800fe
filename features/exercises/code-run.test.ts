import { describe, expect, it } from 'vitest'
import {
  allPassed,
  type CodeRunner,
  normaliseOutput,
  outputMatches,
  runTests,
  timeoutMessage,
} from '#features/exercises/code-run.ts'
import { questionFields } from '#features/exercises/question-input.ts'

describe('output comparison', () => {
  it('ignores line endings, trailing spaces and trailing blank lines, nothing else', () => {
    expect(normaliseOutput('a  \r\nb\t\r\n\r\n')).toBe('a\nb')
    expect(outputMatches('Hello\n', 'Hello')).toBe(true)
    expect(outputMatches('Hello', 'hello')).toBe(false)
    expect(outputMatches('a b', 'a  b')).toBe(false)
  })
})

describe('runTests', () => {
  // A deterministic runner standing in for a language: echoes stdin doubled, or fails on "boom".
  const doubling: CodeRunner = async ({ stdin }) =>
    stdin === 'boom'
      ? { outcome: 'error', stdout: '', stderr: '', durationMs: 1, error: { message: 'boom' } }
      : { outcome: 'completed', stdout: `${Number(stdin) * 2}\n`, stderr: '', durationMs: 1 }
  const request = { language: 'javascript', code: '', timeLimitMs: 1000 } as const

  it('judges every test by its own stdin', async () => {
    const tests = [
      { name: 'one', stdin: '1', expectedOutput: '2' },
      { name: 'two', stdin: '2', expectedOutput: '5' },
      { name: 'error', stdin: 'boom', expectedOutput: '' },
    ]
    const outcomes = await runTests(doubling, request, tests)
    expect(outcomes.map((outcome) => outcome.passed)).toEqual([true, false, false])
    expect(allPassed(outcomes, tests)).toBe(false)
    expect(allPassed(outcomes.slice(0, 1), tests.slice(0, 1))).toBe(true)
  })

  it('stops at an unavailable runner and never calls that a pass', async () => {
    const unavailable: CodeRunner = async () => ({
      outcome: 'unavailable',
      reason: 'busy',
      stdout: '',
      stderr: '',
      durationMs: 0,
    })
    const tests = [
      { name: 'a', stdin: '', expectedOutput: '' },
      { name: 'b', stdin: '', expectedOutput: '' },
    ]
    const outcomes = await runTests(unavailable, request, tests)
    expect(outcomes).toHaveLength(1)
    expect(allPassed(outcomes, tests)).toBe(false)
  })

  it('says the time limit in seconds', () => {
    expect(timeoutMessage(2000)).toContain('2 秒')
    expect(timeoutMessage(1500)).toContain('1.5 秒')
  })
})

describe('question fields', () => {
  const common = { prompt: '1 + 1 は？' }
  it('needs exactly one correct option for a single choice', () => {
    const options = (secondCorrect: boolean) => [
      { id: 'a', text: '1', correct: true },
      { id: 'b', text: '2', correct: secondCorrect },
    ]
    const single = (secondCorrect: boolean) =>
      questionFields.safeParse({ ...common, kind: 'single', options: options(secondCorrect) })
    expect(single(true).success).toBe(false)
    expect(single(false).success).toBe(true)
  })
  it('needs an accepted answer or a pattern for a short text', () => {
    expect(questionFields.safeParse({ ...common, kind: 'text' }).success).toBe(false)
    expect(questionFields.safeParse({ ...common, kind: 'text', pattern: '^2$' }).success).toBe(true)
  })
  it('bounds code at 64 KB and time limits to 0.5–10 s', () => {
    const code = {
      ...common,
      kind: 'code',
      language: 'python',
      referenceSolution: 'print(2)',
      tests: [{ name: 't', expectedOutput: '2' }],
    }
    expect(questionFields.parse(code)).toMatchObject({ timeLimitMs: 2000, starterCode: '' })
    expect(questionFields.safeParse({ ...code, timeLimitMs: 60_000 }).success).toBe(false)
    expect(
      questionFields.safeParse({ ...code, referenceSolution: 'x'.repeat(64 * 1024 + 1) }).success,
    ).toBe(false)
  })
})
