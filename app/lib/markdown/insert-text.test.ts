import { describe, expect, it } from 'vitest'
import { asOwnBlock, imageAlt, imageMarkdown, insertAtSelection } from './insert-text.ts'

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

describe('imageAlt', () => {
  it.each([
    ['the first image of an item', '家計簿アプリ', '', '家計簿アプリ の画像 1'],
    ['after two images', ' 家計簿アプリ ', '![a](u)\n\n![b](v)', '家計簿アプリ の画像 3'],
    ['of an item without a title yet', '  ', '![a](u)', '画像 2'],
    ['with no subject', undefined, '', '画像 1'],
  ])('%s', (_case, subject, text, expected) => {
    expect(imageAlt(subject, text)).toBe(expected)
  })

  it('never names the file, and survives brackets in the title', () => {
    const markdown = imageMarkdown(imageAlt('配列 [入門]', ''), '/s3/b/public/IMG_1234.png')
    expect(markdown).toBe('![配列 入門 の画像 1](/s3/b/public/IMG_1234.png)')
  })
})
