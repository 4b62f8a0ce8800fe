import { describe, expect, it } from 'vitest'
import { normaliseTagName, tagList } from './tag-name.ts'

describe('normaliseTagName', () => {
  it.each([
    ['ＪａｖａＳｃｒｉｐｔ', 'javascript'],
    ['JavaScript', 'javascript'],
    ['ﾌﾟﾛｸﾞﾗﾐﾝｸﾞ', 'プログラミング'],
    ['  Web   開発 ', 'web 開発'],
    ['Ｃ＃', 'c#'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseTagName(input)).toBe(expected)
  })
})

describe('tagList', () => {
  it('merges tags that differ only in width or case, keeping the first order', () => {
    expect(tagList.parse(['Python', 'ＰＹＴＨＯＮ', '入門', 'python'])).toEqual(['python', '入門'])
  })

  it.each([['<b>'], ['a/b'], ['x'.repeat(31)], ['']])('refuses %j', (tag) => {
    expect(tagList.safeParse([tag]).success).toBe(false)
  })
})
