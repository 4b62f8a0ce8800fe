import { describe, expect, it } from 'vitest'
import { markdownText, plainExcerpt } from './excerpt.ts'

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

describe('markdownText', () => {
  it('keeps code as text when asked, and underscores inside words', () => {
    const markdown = [
      '`with_tax` と _斜体_ と **太字** と `` `<b>` `` と `__init__`',
      '> 引用 [リンク](/a)',
      '```py',
      'def with_tax(price):',
      '    return price * 1.1',
      '```',
    ].join('\n')
    expect(markdownText(markdown, { code: 'keep' })).toBe(
      'with_tax と 斜体 と 太字 と `<b>` と __init__ 引用 リンク def with_tax(price): return price * 1.1',
    )
    expect(markdownText(markdown, { code: 'drop' })).toBe(
      'with_tax と 斜体 と 太字 と `<b>` と __init__ 引用 リンク',
    )
  })

  it('treats an unclosed fence as code to the end, as CommonMark does', () => {
    expect(markdownText('前\n~~~\n**残り**', { code: 'keep' })).toBe('前 **残り**')
  })
})
