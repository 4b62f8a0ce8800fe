import { toHtml } from 'hast-util-to-html'
import { describe, expect, it } from 'vitest'
import { createCodeHighlighter, highlightCode } from './highlight.ts'

const SAMPLES: Record<string, string> = {
  tsx: 'const App = () => <div className="x">{1 < 2 && "ok"}</div>',
  typescript: 'type A<T> = { a: T } // c\nconst x: A<number> = { a: 1 }',
  javascript: 'const re = /a+b/g; console.log(`x` + 1)',
  jsx: 'const a = <b onClick={() => 1}>x</b>',
  html: '<!doctype html><script>let a = 1</script><style>p{color:red}</style><p class="a">x</p>',
  css: '@media (min-width: 1px) { .a::before { content: "x"; color: #fff } }',
  json: '{"a": [1, true, null]}',
  python: 'def f(x: int) -> str:\n    return f"{x!r}"  # c',
  bash: 'for f in *.ts; do echo "$f" | grep -v x; done',
  sql: "SELECT a, COUNT(*) FROM t WHERE b = 'x' GROUP BY a;",
  markdown: '# h\n\n```js\nlet a\n```\n\n- [x] a **b**',
  diff: '--- a\n+++ b\n@@ -1 +1 @@\n-a\n+b',
}

describe('highlightCode', () => {
  it.each(Object.entries(SAMPLES))(
    'a fresh highlighter colours %s the same on first use as afterwards',
    (lang, code) => {
      // The server's highlighter is warm, a browser's preview starts cold: they must agree.
      const cold = createCodeHighlighter()
      const first = toHtml(highlightCode(code, lang, cold))
      expect(toHtml(highlightCode(code, lang, cold))).toBe(first)
      expect(first).toContain(`data-language="${lang}"`)
      expect(first).toMatch(/<span style="color:light-dark\(#[0-9A-F]{6}, #[0-9A-F]{6}\)/i)
    },
  )

  it('agrees with the JavaScript tokens a reader expects', () => {
    const html = toHtml(highlightCode('const x = 1 < 2 && "ok"', 'tsx', createCodeHighlighter()))
    expect(html).toContain(
      '<span style="color:light-dark(#CF222E, #FF7B72);--shiki-light:#CF222E;--shiki-dark:#FF7B72">const</span>',
    )
    expect(html).toContain(
      '<span style="color:light-dark(#0A3069, #A5D6FF);--shiki-light:#0A3069;--shiki-dark:#A5D6FF"> "ok"</span>',
    )
  })
})
