import { describe, expect, it } from 'vitest'
import { normalizeTag, TAG_MAX_LENGTH, tagListSchema, tagSchema } from './normalize.ts'

function refusal(input: unknown): string | undefined {
  return tagSchema.safeParse(input).error?.issues[0]?.message
}

describe('normalizeTag', () => {
  it.each([
    ['ＪａｖａＳｃｒｉｐｔ', 'javascript'],
    ['JavaScript', 'javascript'],
    ['C++', 'c++'],
    ['Ｃ＋＋', 'c++'],
    ['C＃', 'c#'],
    ['Node.js', 'node.js'],
    ['  TypeScript  ', 'typescript'],
    ['React Native', 'react-native'],
    ['react　 native', 'react-native'],
    ['はじめての Python', 'はじめての-python'],
    ['ﾊﾟｲｿﾝ', 'パイソン'],
    ['snake_case', 'snake_case'],
    ['Ｐｙｔｈｏｎ３', 'python3'],
  ])('%s → %s', (raw, normalized) => {
    expect(normalizeTag(raw)).toBe(normalized)
    expect(tagSchema.parse(raw)).toBe(normalized)
  })
})

describe('tagSchema validation', () => {
  it('accepts letters of any script, digits and + # . - _', () => {
    for (const tag of [
      'データベース',
      '한국어',
      'हिन्दी',
      'объект',
      'web3',
      'c#',
      '.net',
      'vue-router',
    ]) {
      expect(tagSchema.parse(tag)).toBe(tag)
    }
  })

  it('counts length in characters after normalisation', () => {
    expect(tagSchema.parse('あ'.repeat(TAG_MAX_LENGTH))).toHaveLength(TAG_MAX_LENGTH)
    expect(refusal('あ'.repeat(TAG_MAX_LENGTH + 1))).toBe('タグは1つ30文字以内にしてください。')
    // Four half-width katakana with sound marks fold into four characters, not eight.
    expect(tagSchema.parse('ﾊﾟ'.repeat(TAG_MAX_LENGTH))).toHaveLength(TAG_MAX_LENGTH)
  })

  it('refuses empty tags, other symbols and punctuation alone, in Japanese', () => {
    expect(refusal('')).toBe('空のタグは付けられません。')
    expect(refusal('   ')).toBe('空のタグは付けられません。')
    expect(refusal('<script>')).toBe('タグ「<script>」には文字・数字と + # . - _ だけが使えます。')
    expect(refusal('a/b')).toBe('タグ「a/b」には文字・数字と + # . - _ だけが使えます。')
    expect(refusal('..')).toBe('タグ「..」には文字・数字と + # . - _ だけが使えます。')
    expect(refusal('🎉')).toBe('タグ「🎉」には文字・数字と + # . - _ だけが使えます。')
    expect(refusal(3)).toBe('タグを文字列で入力してください。')
  })
})

describe('tagListSchema', () => {
  it('merges tags that are the same after normalisation, keeping the first position', () => {
    expect(
      tagListSchema.parse(['JavaScript', 'Python', 'ＪａｖａＳｃｒｉｐｔ', 'javascript']),
    ).toEqual(['javascript', 'python'])
  })

  it('allows ten distinct tags and refuses eleven', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `tag${i}`)
    expect(tagListSchema.parse([...ten, 'TAG0'])).toEqual(ten)
    const refused = tagListSchema.safeParse([...ten, 'tag10'])
    expect(refused.error?.issues[0]?.message).toBe('タグは10個までです。')
  })

  it('reports which tag is invalid', () => {
    const refused = tagListSchema.safeParse(['ok', 'a b/c'])
    expect(refused.error?.issues[0]?.path).toEqual([1])
    expect(refused.error?.issues[0]?.message).toBe(
      'タグ「a-b/c」には文字・数字と + # . - _ だけが使えます。',
    )
    expect(tagListSchema.safeParse('javascript').error?.issues[0]?.message).toBe(
      'タグの一覧を配列で入力してください。',
    )
  })
})
