import { describe, expect, it } from 'vitest'
import { formatConsoleArguments } from './console-format.ts'

const line = (...args: unknown[]) => formatConsoleArguments(args)

describe('formatConsoleArguments', () => {
  it('prints what a beginner prints as Node does, on one line', () => {
    expect(line('こんにちは', 42, true, null, undefined)).toBe('こんにちは 42 true null undefined')
    expect(line([1, 'a', [2, [3, [4]]]])).toBe("[ 1, 'a', [ 2, [ 3, [Array] ] ] ]")
    expect(line({ name: 'ハナ', 'a-b': 1, nested: { x: [] } })).toBe(
      "{ name: 'ハナ', 'a-b': 1, nested: { x: [] } }",
    )
    expect(line(new Map([['a', 1]]), new Set([1, 2]))).toBe("Map(1) { 'a' => 1 } Set(2) { 1, 2 }")
    expect(line(-0, 10n, [], {})).toBe('-0 10n [] {}')
    expect(
      line(
        function named() {},
        () => {},
      ),
    ).toBe('[Function: named] [Function (anonymous)]')
    expect(line(["it's"])).toBe("[ 'it\\'s' ]")
  })

  it('marks a circular reference instead of recursing', () => {
    const value: Record<string, unknown> = { a: 1 }
    value.self = value
    expect(line(value)).toBe('{ a: 1, self: [Circular *1] }')
  })

  it('reads printf-style placeholders from a first string', () => {
    expect(line('%s は %d 歳、%i%%', 'ハナ', 20.5, 3.9)).toBe('ハナ は 20.5 歳、3%')
    expect(line('%o と %j', [1], { a: 1 }, 'rest')).toBe('[ 1 ] と {"a":1} rest')
    expect(line('%s')).toBe('%s')
  })

  it('shortens long arrays', () => {
    expect(line(Array.from({ length: 102 }, (_, i) => i))).toMatch(/, 99, \.\.\. 2 more items \]$/)
  })

  it('is self-contained, so that a sandbox can take it as source text', () => {
    const copy = new Function(
      `return (${formatConsoleArguments.toString()})`,
    )() as typeof formatConsoleArguments
    expect(copy(['x', [1]])).toBe('x [ 1 ]')
  })
})
