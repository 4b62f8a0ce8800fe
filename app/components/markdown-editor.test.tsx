// @vitest-environment happy-dom
import { act, createRef, useState } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MARKDOWN_MAX_LENGTH } from '#features/markdown/limits.ts'
import { MarkdownEditor, type MarkdownEditorHandle, previewOf } from './markdown-editor.tsx'

Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true })

/** The demo a later editor page will look like: the editor's value lives in the page's state. */
function Demo(props: {
  initial: string
  changes: string[]
  handle?: React.Ref<MarkdownEditorHandle>
}) {
  const [body, setBody] = useState(props.initial)
  return (
    <form>
      <MarkdownEditor
        label="本文"
        name="body"
        value={body}
        onChange={(next) => {
          props.changes.push(next)
          setBody(next)
        }}
        ref={props.handle}
      />
    </form>
  )
}

afterEach(() => {
  document.body.innerHTML = ''
})

describe('MarkdownEditor on the server', () => {
  it('renders a labelled textarea with the value, the tabs and the preview pane', () => {
    const html = renderToString(<Demo initial={'# 見出し\n\n本文 <b>'} changes={[]} />)
    const container = document.createElement('div')
    container.innerHTML = html
    const textarea = container.querySelector('textarea')
    expect(textarea?.name).toBe('body')
    expect(textarea?.value).toBe('# 見出し\n\n本文 <b>')
    const label = container.querySelector(
      `#${CSS.escape(textarea?.getAttribute('aria-labelledby') ?? '')}`,
    )
    expect(label?.textContent).toBe('本文')
    const tabs = [...container.querySelectorAll('[role="tab"]')].map((tab) => [
      tab.textContent,
      tab.getAttribute('aria-selected'),
    ])
    expect(tabs).toEqual([
      ['編集', 'true'],
      ['プレビュー', 'false'],
    ])
    expect(container.querySelectorAll('[role="tabpanel"]')).toHaveLength(2)
    expect(container.textContent).toContain('プレビューを準備しています…')
  })
})

describe('MarkdownEditor in the browser', () => {
  async function hydrate(initial: string) {
    const changes: string[] = []
    const handle = createRef<MarkdownEditorHandle>()
    const container = document.createElement('div')
    container.innerHTML = renderToString(<Demo initial={initial} changes={changes} />)
    document.body.append(container)
    const errors: unknown[] = []
    await act(async () => {
      hydrateRoot(container, <Demo initial={initial} changes={changes} handle={handle} />, {
        onRecoverableError: (error) => errors.push(error),
      })
    })
    await vi.waitFor(() => {
      if (!container.querySelector('.cm-content')) throw new Error('CodeMirror has not mounted')
      if (!container.querySelector('.markdown-body')) throw new Error('no preview yet')
      // Loading the renderer's chunk (Shiki's grammars) takes a while on a busy machine.
    }, 20_000)
    return { container, changes, handle, errors }
  }

  it('replaces the textarea with a labelled CodeMirror editor and previews with the renderer', async () => {
    const { container, changes, errors } = await hydrate('## はじめに\n\n```ts\nconst a = 1\n```')
    expect(errors).toEqual([])
    const content = container.querySelector('.cm-content')
    const textarea = container.querySelector('textarea')
    expect(content?.textContent).toContain('## はじめに')
    expect(content?.getAttribute('aria-labelledby')).toBe(textarea?.getAttribute('aria-labelledby'))
    expect(content?.getAttribute('aria-multiline')).toBe('true')
    expect(textarea?.hidden, 'the textarea stays in the form, hidden').toBe(true)
    expect(changes, 'nothing changed, so nothing is reported').toEqual([])
    const preview = container.querySelector('.markdown-body')
    expect(preview?.querySelector('h2')?.id).toBe('はじめに')
    expect(preview?.querySelector('pre.shiki')?.getAttribute('data-language')).toBe('ts')
  })

  it('inserts text at the cursor through the handle and reports the new value', async () => {
    const { container, changes, handle } = await hydrate('画像: ')
    await act(async () => handle.current?.insertText('![図](/s3/techlab/public/a.png)'))
    // CodeMirror's cursor starts at the beginning of the document.
    expect(changes.at(-1)).toBe('![図](/s3/techlab/public/a.png)画像: ')
    expect(container.querySelector('textarea')?.value).toBe('![図](/s3/techlab/public/a.png)画像: ')
    await vi.waitFor(() => {
      const image = container.querySelector('.markdown-body img')
      if (!image) throw new Error('the preview has not caught up')
      expect(image.getAttribute('src')).toBe('/s3/techlab/public/a.png')
    })
  })

  it('switches between the edit and preview tabs', async () => {
    const { container } = await hydrate('本文')
    const [editTab, previewTab] = container.querySelectorAll<HTMLButtonElement>('[role="tab"]')
    const [editPanel, previewPanel] = container.querySelectorAll('[role="tabpanel"]')
    expect(previewPanel?.className).toContain('max-lg:hidden')
    await act(async () => previewTab?.click())
    expect(previewTab?.getAttribute('aria-selected')).toBe('true')
    expect(editTab?.getAttribute('aria-selected')).toBe('false')
    expect(previewPanel?.className).not.toContain('max-lg:hidden')
    expect(editPanel?.className).toContain('max-lg:hidden')
  })
})

describe('previewOf', () => {
  const render = (source: string) => `<p>${source}</p>`

  it('renders the source once the renderer has loaded', () => {
    expect(previewOf('a', render)).toEqual({ kind: 'html', html: '<p>a</p>' })
    expect(previewOf('a', undefined)).toEqual({
      kind: 'message',
      message: 'プレビューを準備しています…',
    })
    expect(previewOf('  \n', render)).toEqual({
      kind: 'message',
      message: 'プレビューする内容はまだありません。',
    })
  })

  it('refuses to render a body over the limit, with the validation message', () => {
    expect(previewOf('a'.repeat(MARKDOWN_MAX_LENGTH + 1), render)).toEqual({
      kind: 'message',
      message: '本文は100,000文字以内で入力してください。',
    })
  })

  it('refuses to render a body the save would refuse for its nesting, with the same message', () => {
    expect(previewOf('>'.repeat(3000), render)).toEqual({
      kind: 'message',
      message: '引用・リスト・字下げの入れ子は32段までにしてください。',
    })
  })
})
