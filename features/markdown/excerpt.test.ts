import { describe, expect, it } from 'vitest'
import { plainExcerpt } from './excerpt.ts'

describe('plainExcerpt', () => {
  it('keeps the words and drops the marks, code blocks, images and tags', () => {
    const markdown = [
      '# 見出し',
      '',
      '**太字**と[リンク](https://example.com)と`コード`。',
      '',
      '![画面](/s3/b/public/x.png)',
      '```js',
      'console.log(1)',
      '```',
      '- 項目 <b>1</b>',
    ].join('\n')
    expect(plainExcerpt(markdown)).toBe('見出し 太字とリンクとコード。 項目 1')
  })

  it('cuts long text by characters, not code units', () => {
    expect(plainExcerpt('あ🍣'.repeat(10), 5)).toBe('あ🍣あ🍣あ…')
    expect(plainExcerpt('短い', 5)).toBe('短い')
  })
})
