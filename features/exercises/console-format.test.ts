import { describe, expect, it } from 'vitest'
import { formatConsoleArgs } from './console-format.ts'

const line = (...args: unknown[]) => formatConsoleArgs(args)

describe('formatConsoleArgs', () => {
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

  it('is self-contained, so that a sandbox can take it as source text', () => {
    const copy = new Function(
      `return (${formatConsoleArgs.toString()})`,
    )() as typeof formatConsoleArgs
    expect(copy(['x', [1]])).toBe('x [ 1 ]')
  })
})
