import { describe, expect, it } from 'vitest'
import { markdownBodySchema } from './body.ts'
import { renderMarkdown } from './render.ts'
import {
  MARKDOWN_BRACKETS_MESSAGE,
  MARKDOWN_EMPHASIS_MESSAGE,
  MARKDOWN_HTML_NESTING_MESSAGE,
  MARKDOWN_NESTING_MESSAGE,
  MARKDOWN_STRIKETHROUGH_MESSAGE,
  markdownStructureError,
} from './structure.ts'

describe('markdownStructureError', () => {
  it('refuses the known Markdown bombs, each with its reason', () => {
    expect(markdownStructureError('*a**'.repeat(22500))).toBe(MARKDOWN_EMPHASIS_MESSAGE)
    expect(markdownStructureError('>'.repeat(90000))).toBe(MARKDOWN_NESTING_MESSAGE)
    expect(markdownStructureError('>'.repeat(3000))).toBe(MARKDOWN_NESTING_MESSAGE)
    expect(markdownStructureError('<div>'.repeat(18000))).toBe(MARKDOWN_HTML_NESTING_MESSAGE)
    expect(markdownStructureError('<div>\n\n'.repeat(100))).toBe(MARKDOWN_HTML_NESTING_MESSAGE)
    expect(markdownStructureError('[a]('.repeat(22500))).toBe(MARKDOWN_BRACKETS_MESSAGE)
    const deepList = Array.from({ length: 40 }, (_, depth) => `${'  '.repeat(depth)}- a`)
    expect(markdownStructureError(deepList.join('\n'))).toBe(MARKDOWN_NESTING_MESSAGE)
    expect(markdownStructureError('> - > - '.repeat(9))).toBe(MARKDOWN_NESTING_MESSAGE)
  })

  it('counts strikethrough marks per paragraph like emphasis marks', () => {
    // Seconds of the parser's work at this length, however the marks are spelled.
    expect(markdownStructureError('~~a'.repeat(30000))).toBe(MARKDOWN_STRIKETHROUGH_MESSAGE)
    expect(markdownStructureError('~a'.repeat(501))).toBe(MARKDOWN_STRIKETHROUGH_MESSAGE)
    expect(markdownStructureError('~~a~~ '.repeat(250))).toBeUndefined()
    expect(markdownStructureError('~~a~~ '.repeat(250).concat('\n\n').repeat(10))).toBeUndefined()
    // A single run, however long, is one mark.
    expect(markdownStructureError('~'.repeat(90000))).toBeUndefined()
  })

  it('accepts ordinary writing up to the bounds, and code of any shape', () => {
    const ordinary = [
      '# 見出し',
      '',
      '> 引用の中の **太字** と [リンク](https://example.com)',
      '',
      '- 項目',
      '  - 入れ子',
      '    1. さらに',
      '',
      '<details><summary>答え</summary><p>段落<br>改行</p></details>',
      '',
      '```html',
      '<div>'.repeat(100),
      '>'.repeat(100),
      '```',
      '',
      '*a* '.repeat(250),
      '',
      '[a] '.repeat(500),
    ].join('\n')
    expect(markdownStructureError(ordinary)).toBeUndefined()
    expect(markdownStructureError(`${'>'.repeat(32)} 深い引用`)).toBeUndefined()
    expect(markdownStructureError(`${'<div>'.repeat(32)}a${'</div>'.repeat(32)}`)).toBeUndefined()
    // Blocks count their marks apart; closed elements do not add up.
    expect(markdownStructureError('**a** '.repeat(120).concat('\n\n').repeat(10))).toBeUndefined()
    expect(markdownStructureError('<span>a</span>'.repeat(1000))).toBeUndefined()
    // What passes renders without overflowing the renderer's stack.
    expect(renderMarkdown(`${'>'.repeat(32)} a\n\n${'<div>'.repeat(32)}`)).toContain('<blockquote>')
  })

  it('is what a body schema refuses with, as a field message', () => {
    const refused = markdownBodySchema.safeParse('<div>'.repeat(18000))
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual([
      MARKDOWN_HTML_NESTING_MESSAGE,
    ])
  })
})
