// @vitest-environment happy-dom
import { act } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderMarkdown } from '#features/markdown/render.ts'
import { MarkdownView } from './markdown-view.tsx'

Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true })

const DOCUMENTS = {
  everything: [
    '# はじめての TypeScript',
    '',
    '| 型 | 例 |',
    '| --- | --- |',
    '| `string` | "あ" & \'い\' |',
    '',
    '- [x] インストール',
    '- [ ] ~~後で~~',
    '',
    '```tsx',
    'const App = () => <div className="x">{1 < 2 && "ok"}</div>',
    '```',
    '',
    '```unknown',
    '<b>plain</b>',
    '```',
    '',
    '注釈[^n] と https://example.com と ![図](/s3/techlab/public/a.png)',
    '',
    '<details><summary>答え</summary>\n\n**42**\n\n</details>',
    '',
    '[^n]: 脚注です',
  ].join('\n'),
  empty: '',
  sanitised: '<img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>',
}

afterEach(() => {
  document.body.innerHTML = ''
  vi.restoreAllMocks()
})

describe('MarkdownView hydration', () => {
  it.each(Object.entries(DOCUMENTS))(
    'the browser hydrates the server markup of %s without a mismatch',
    async (_name, source) => {
      const html = renderMarkdown(source)
      const container = document.createElement('div')
      container.innerHTML = renderToString(<MarkdownView html={html} />)
      document.body.append(container)
      const serverNode = container.firstChild
      const consoleError = vi.spyOn(console, 'error')
      const recoverable: unknown[] = []

      await act(async () => {
        hydrateRoot(container, <MarkdownView html={renderMarkdown(source)} />, {
          onRecoverableError: (error) => recoverable.push(error),
        })
      })

      expect(recoverable).toEqual([])
      // React's development build compares the parsed server HTML with the client's string.
      expect(consoleError).not.toHaveBeenCalled()
      expect(container.firstChild, 'the server DOM was kept, not re-rendered').toBe(serverNode)
    },
  )

  it('the comparison notices different markup (so a clean hydration means something)', async () => {
    const container = document.createElement('div')
    container.innerHTML = renderToString(<MarkdownView html={renderMarkdown('# 見出し')} />)
    document.body.append(container)
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    await act(async () => {
      hydrateRoot(container, <MarkdownView html={renderMarkdown('# 別の見出し')} />)
    })
    expect(consoleError).toHaveBeenCalled()
  })
})
