import { describe, expect, it } from 'vitest'
import { OutputCapture, truncateUtf8 } from './output-capture.ts'

describe('truncateUtf8', () => {
  it('cuts at a character boundary within the byte budget', () => {
    expect(truncateUtf8('あいう', 7)).toBe('あい')
    expect(truncateUtf8('あいう', 6)).toBe('あい')
    expect(truncateUtf8('abc', 10)).toBe('abc')
    expect(truncateUtf8('😀x', 3)).toBe('')
    expect(truncateUtf8('abc', 0)).toBe('')
  })
})

describe('OutputCapture', () => {
  it('keeps stdout and stderr together within the limit, and says when it is full', () => {
    const output = new OutputCapture(10)
    expect(output.append('stdout', 'abc\n')).toBe(true)
    expect(output.full).toBe(false)
    // 9 bytes with 6 left: cut after two characters.
    expect(output.append('stderr', 'エラー')).toBe(false)
    expect(output).toMatchObject({ stdout: 'abc\n', stderr: 'エラ', bytes: 10, full: true })
    expect(output.append('stdout', 'x')).toBe(false)
    expect(output.stdout).toBe('abc\n')
  })
})
