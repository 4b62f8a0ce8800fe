import { describe, expect, it } from 'vitest'
import { foldAnswer, gradeMultiple, gradeText, patternProblem } from './grading.server.ts'

describe('grading', () => {
  it('folds width, case and spaces the same way for answers and accepted answers', () => {
    expect(foldAnswer('  Ｈｅｌｌｏ　 World ')).toBe('hello world')
    expect(foldAnswer('ｶﾀｶﾅ')).toBe('カタカナ')
    expect(
      gradeText({ acceptedAnswers: ['ＪａｖａＳｃｒｉｐｔ'], pattern: null }, 'javascript').correct,
    ).toBe(true)
  })

  it('matches an author’s pattern in linear time, even one that backtracks exponentially elsewhere', () => {
    const evil = { acceptedAnswers: [], pattern: '(a|a)*b' }
    // A backtracking engine takes 2^200 steps on this; RE2 answers at once.
    const started = performance.now()
    expect(gradeText(evil, 'a'.repeat(200)).correct).toBe(false)
    expect(
      gradeText({ acceptedAnswers: [], pattern: '(a*)*(b*)*c' }, 'a'.repeat(200)).correct,
    ).toBe(false)
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(gradeText(evil, 'aaab').correct).toBe(true)
  })

  it('refuses patterns RE2 cannot run', () => {
    expect(patternProblem('(a)\\1')).toContain('正規表現')
    expect(patternProblem('foo(?=bar)')).toContain('正規表現')
    expect(patternProblem('[')).toContain('正規表現')
    expect(patternProblem('^\\d{3}-\\d{4}$')).toBeUndefined()
  })

  it('needs every correct option and no wrong one, naming the wrong and counting the missing', () => {
    const options = [
      { id: 'a', correct: true },
      { id: 'b', correct: true },
      { id: 'c', correct: false },
    ]
    expect(gradeMultiple(options, ['a', 'b']).correct).toBe(true)
    expect(gradeMultiple(options, ['a', 'b', 'c'])).toEqual({
      correct: false,
      feedback: { kind: 'multiple', wrongOptionIds: ['c'], missingCorrect: 0 },
    })
    expect(gradeMultiple(options, ['c', 'zz'])).toEqual({
      correct: false,
      feedback: { kind: 'multiple', wrongOptionIds: ['c', 'zz'], missingCorrect: 2 },
    })
  })
})
