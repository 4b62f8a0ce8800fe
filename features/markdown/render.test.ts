import { describe, expect, it } from 'vitest'
import { MARKDOWN_MAX_LENGTH, markdownBodySchema } from './body.ts'
import { renderMarkdown } from './render.ts'

describe('renderMarkdown: GitHub-flavoured Markdown', () => {
  it('renders tables, task lists, strikethrough and autolinks', () => {
    const html = renderMarkdown(
      [
        '| 言語 | 用途 |',
        '| :-- | --: |',
        '| Python | ~~全部~~ データ |',
        '',
        '- [x] 環境構築',
        '- [ ] 演習',
        '',
        'https://example.com/docs と www.example.org',
      ].join('\n'),
    )
    expect(html).toContain('<table>')
    expect(html).toContain('<th align="left">言語</th>')
    expect(html).toContain('<td align="right"><del>全部</del> データ</td>')
    expect(html).toContain('<ul class="contains-task-list">')
    expect(html).toContain('<input type="checkbox" checked disabled> 環境構築')
    expect(html).toContain('<input type="checkbox" disabled> 演習')
    expect(html).toContain('<a href="https://example.com/docs"')
    expect(html).toContain('<a href="http://www.example.org"')
  })

  it('gives headings Japanese-safe, unique ids for anchors', () => {
    const html = renderMarkdown('# はじめての Python!\n\n## はじめての Python!\n\n### Step 1: 準備')
    expect(html).toContain('<h1 id="はじめての-python">')
    expect(html).toContain('<h2 id="はじめての-python-1">')
    expect(html).toContain('<h3 id="step-1-準備">')
  })

  it('renders footnotes with Japanese labels and links that reach their targets', () => {
    const html = renderMarkdown('本文[^1]\n\n[^1]: 注釈')
    expect(html).toContain('<a href="#user-content-fn-1" id="user-content-fnref-1"')
    expect(html).toContain('<li id="user-content-fn-1">')
    expect(html).toContain('>脚注</h2>')
    expect(html).toContain('href="#user-content-fnref-1"')
  })

  it('points fragment links at prefixed authored ids, and keeps heading anchors as written', () => {
    const html = renderMarkdown(
      '<span id="memo">メモ</span>\n\n[メモへ](#memo) [見出しへ](#概要)\n\n## 概要',
    )
    expect(html).toContain('<span id="user-content-memo">')
    expect(html).toContain('<a href="#user-content-memo">メモへ</a>')
    expect(html).toContain(`<a href="#${encodeURIComponent('概要')}">見出しへ</a>`)
  })
})

describe('renderMarkdown: links and images', () => {
  it('marks external links and leaves relative and mailto links alone', () => {
    const html = renderMarkdown(
      '[外部](https://example.com) [http](http://example.com) [講座](/courses) [相対](../a) [メール](mailto:a@example.com) [二重スラッシュ](//evil.example/x)',
    )
    const external = 'rel="nofollow noopener noreferrer ugc" target="_blank"'
    expect(html).toContain(`<a href="https://example.com" ${external}>外部</a>`)
    expect(html).toContain(`<a href="http://example.com" ${external}>http</a>`)
    expect(html).toContain(`<a href="//evil.example/x" ${external}>二重スラッシュ</a>`)
    expect(html).toContain('<a href="/courses">講座</a>')
    expect(html).toContain('<a href="../a">相対</a>')
    expect(html).toContain('<a href="mailto:a@example.com">メール</a>')
  })

  it('keeps https and same-site images, drops plain http ones, and loads them lazily', () => {
    const html = renderMarkdown(
      '![図1](https://bucket.s3.example.com/public/a.png) ![図2](/s3/techlab/public/u/b.png) ![図3](http://example.com/c.png)',
    )
    expect(html).toContain(
      '<img src="https://bucket.s3.example.com/public/a.png" alt="図1" loading="lazy">',
    )
    expect(html).toContain('<img src="/s3/techlab/public/u/b.png" alt="図2" loading="lazy">')
    expect(html).toContain('<img alt="図3" loading="lazy">')
  })
})

describe('renderMarkdown: code highlighting', () => {
  it('highlights known languages and their aliases with both themes', () => {
    for (const lang of [
      'ts',
      'typescript',
      'tsx',
      'jsx',
      'js',
      'python',
      'py',
      'sh',
      'bash',
      'html',
      'css',
      'json',
      'sql',
      'md',
      'diff',
    ]) {
      const html = renderMarkdown(`\`\`\`${lang}\nconst x = 1 // "a"\n\`\`\``)
      expect(html, lang).toContain(
        '<pre class="shiki shiki-themes github-light-default github-dark-default"',
      )
      expect(html, lang).toContain(`data-language="${lang}"`)
      expect(html, lang).toMatch(/<span style="color:light-dark\(#[0-9A-F]{6}, #[0-9A-F]{6}\)/i)
    }
  })

  it('colours tokens differently by language', () => {
    const html = renderMarkdown('```python\ndef f():\n    return None\n```')
    expect(html).toContain('>def</span>')
    expect(html).toMatch(/<span style="color:light-dark\(#CF222E, #FF7B72\);[^"]*">def<\/span>/)
  })

  it('renders unknown and missing languages as plain text, escaped', () => {
    for (const fence of ['```cobol', '```', '```"><script>']) {
      const html = renderMarkdown(`${fence}\n<b>x</b> & y\n\`\`\``)
      expect(html, fence).toContain('data-language="text"')
      expect(html, fence).toContain('<span>&#x3C;b>x&#x3C;/b> &#x26; y</span>')
      expect(html, fence).not.toContain('<b>')
    }
  })

  it('keeps inline code as code, unhighlighted', () => {
    expect(renderMarkdown('`<i>a</i>`')).toBe('<p><code>&#x3C;i>a&#x3C;/i></code></p>')
  })
})

describe('markdownBodySchema', () => {
  it('accepts a body up to the limit and refuses a longer one in Japanese', () => {
    expect(markdownBodySchema.parse('a'.repeat(MARKDOWN_MAX_LENGTH))).toHaveLength(
      MARKDOWN_MAX_LENGTH,
    )
    const refused = markdownBodySchema.safeParse('a'.repeat(MARKDOWN_MAX_LENGTH + 1))
    expect(refused.success).toBe(false)
    expect(refused.error?.issues[0]?.message).toBe('本文は100,000文字以内で入力してください。')
    expect(markdownBodySchema.safeParse(42).error?.issues[0]?.message).toBe(
      '本文を文字列で入力してください。',
    )
  })
})

describe('renderMarkdown: plain Markdown for comments', () => {
  it('shows raw HTML as text and keeps Markdown itself', () => {
    const html = renderMarkdown(
      '**太字** と ![図](/s3/techlab/public/a.png)\n\n<img src="https://tracker.example/p.gif">\n\n見て <b>ね</b>',
      'plain',
    )
    expect(html).toContain('<strong>太字</strong>')
    expect(html).toContain('<img src="/s3/techlab/public/a.png" alt="図" loading="lazy">')
    expect(html).not.toContain('<img src="https://tracker')
    expect(html).toContain('&#x3C;img src="https://tracker.example/p.gif">')
    expect(html).toContain('見て &#x3C;b>ね&#x3C;/b>')
  })

  it('still lets lesson bodies use the raw HTML the sanitiser allows', () => {
    expect(renderMarkdown('<img src="/s3/techlab/public/a.png" alt="x">')).toContain('<img')
  })
})
