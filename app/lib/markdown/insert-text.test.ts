import { describe, expect, it } from 'vitest'
import { asOwnBlock, insertAtSelection } from './insert-text.ts'

describe('insertAtSelection', () => {
  it.each([
    ['at the cursor', 'ab', 1, 1, 'X', 'aXb', 2],
    ['replacing the selection', 'abcd', 1, 3, 'X', 'aXd', 2],
    ['with a backwards selection', 'abcd', 3, 1, 'X', 'aXd', 2],
    ['at the end', 'ab', 2, 2, '![図](/s3/b/public/a.png)', 'ab![図](/s3/b/public/a.png)', 26],
    ['into an empty text', '', 0, 0, 'あ', 'あ', 1],
    ['with positions past the end', 'ab', 9, 9, 'X', 'abX', 3],
  ])('%s', (_case, value, start, end, text, expected, cursor) => {
    expect(insertAtSelection(value, start, end, text)).toEqual({ value: expected, cursor })
  })
})

describe('asOwnBlock', () => {
  it.each([
    ['at the start', '', '![a](u)\n'],
    ['after a blank line', 'text\n\n', '![a](u)\n'],
    ['at the start of a line', 'text\n', '\n![a](u)\n'],
    ['at the end of a closing fence', '```js\nx\n```', '\n\n![a](u)\n'],
  ])('%s', (_case, before, expected) => {
    expect(asOwnBlock(before, '![a](u)')).toBe(expected)
  })
})
