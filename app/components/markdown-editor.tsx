import {
  type Ref,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import {
  asOwnBlock,
  imageAlt,
  imageMarkdown,
  insertAtSelection,
} from '#app/lib/markdown/insert-text.ts'
import { isMarkdownTooLong, MARKDOWN_TOO_LONG_MESSAGE } from '#features/markdown/limits.ts'
import type { MarkdownFlavour } from '#features/markdown/render.ts'
import { markdownStructureError } from '#features/markdown/structure.ts'
import { ContentImageUpload } from './content-image-upload.tsx'
import { FieldError } from './forms.tsx'
import { MarkdownView } from './markdown-view.tsx'

export type MarkdownEditorHandle = {
  /** Inserts text at the cursor (replacing any selection), e.g. `![alt](url)` after an upload. */
  insertText(text: string): void
}

type MarkdownEditorProps = {
  label: string
  /** The form field name; the textarea carries the value for forms before and after hydration. */
  name: string
  value: string
  onChange(value: string): void
  error?: string
  ref?: Ref<MarkdownEditorHandle>
  /**
   * Offers 「画像を追加」: the image goes to the author's folder of object storage under this
   * name (e.g. `stories`) and its Markdown lands at the cursor.
   */
  imageFolder?: string
  /**
   * What an uploaded image shows, for its alt text (the item's title): each image inserted is
   * 「{imageSubject} の画像 N」, never its file name (`IMG_1234` tells a screen reader nothing).
   * The author can rewrite it in the text like any other words.
   */
  imageSubject?: string
  /** `plain` for comments: the preview shows raw HTML as text, as the saved comment will. */
  flavour?: MarkdownFlavour
}

type Tab = 'edit' | 'preview'

type Renderer = (source: string) => string

type EditorViewApi = typeof import('#app/lib/markdown/editor-view.client.ts')
type LoadedEditor = {
  view: ReturnType<EditorViewApi['createMarkdownEditorView']>
  api: EditorViewApi
}

const paneClass = 'min-w-0 rounded-lg border border-slate-300 dark:border-slate-600'

/**
 * A Markdown field: CodeMirror 6 with a live preview from the site's one renderer. Side by side
 * on wide screens; tabs 「編集」/「プレビュー」 on narrow ones. The server renders a plain
 * textarea with the same value, so the form works before the editor (browser-only) loads.
 * CodeMirror owns the text while it runs: changes flow out through `onChange`, and `value` is
 * pushed back in only when it differs (an outside reset), so IME composition is never interrupted.
 */
export function MarkdownEditor({
  label,
  name,
  value,
  onChange,
  error,
  ref,
  imageFolder,
  imageSubject,
  flavour = 'full',
}: MarkdownEditorProps) {
  const id = useId()
  const labelId = `${id}-label`
  const errorId = `${id}-error`
  const textarea = useRef<HTMLTextAreaElement>(null)
  const host = useRef<HTMLDivElement>(null)
  const [editor, setEditor] = useState<LoadedEditor>()
  const [tab, setTab] = useState<Tab>('edit')
  // The latest props for CodeMirror's listener, which is created once per mount.
  const latest = useRef({ value, onChange })
  useLayoutEffect(() => {
    latest.current = { value, onChange }
  })

  useEffect(() => {
    let loaded: LoadedEditor | undefined
    let cancelled = false
    import('#app/lib/markdown/editor-view.client.ts').then((api) => {
      const parent = host.current
      const fallback = textarea.current
      if (cancelled || !parent || !fallback) return
      const view = api.createMarkdownEditorView({
        parent,
        doc: fallback.value,
        labelledBy: labelId,
        describedBy: errorId,
        onChange: (next) => latest.current.onChange(next),
      })
      loaded = { view, api }
      setEditor(loaded)
    })
    return () => {
      cancelled = true
      loaded?.view.destroy()
    }
  }, [labelId, errorId])

  useEffect(() => {
    editor?.api.replaceViewDocument(editor.view, value)
  }, [editor, value])

  const insertText = useCallback(
    (text: string, block = false) => {
      if (editor) {
        editor.api.insertIntoView(editor.view, text, block)
        return
      }
      const field = textarea.current
      if (!field) return
      const start = Math.min(field.selectionStart, field.selectionEnd)
      const insert = block ? asOwnBlock(field.value.slice(0, start), text) : text
      const inserted = insertAtSelection(
        field.value,
        field.selectionStart,
        field.selectionEnd,
        insert,
      )
      latest.current.onChange(inserted.value)
      requestAnimationFrame(() => field.setSelectionRange(inserted.cursor, inserted.cursor))
    },
    [editor],
  )
  useImperativeHandle(ref, () => ({ insertText: (text) => insertText(text) }), [insertText])

  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-end justify-between gap-2">
        <span id={labelId} className="text-sm font-semibold">
          {label}
        </span>
        <div role="tablist" aria-label={`${label}の表示`} className="flex gap-1 lg:hidden">
          <EditorTab id={id} tab="edit" selected={tab} onSelect={setTab}>
            編集
          </EditorTab>
          <EditorTab id={id} tab="preview" selected={tab} onSelect={setTab}>
            プレビュー
          </EditorTab>
        </div>
      </div>
      <div className="grid gap-3 lg:grid-cols-2">
        <div
          id={`${id}-panel-edit`}
          role="tabpanel"
          aria-labelledby={`${id}-tab-edit`}
          className={`${paneClass} ${tab === 'edit' ? '' : 'max-lg:hidden'}`}
        >
          <textarea
            ref={textarea}
            name={name}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            hidden={editor !== undefined}
            aria-labelledby={labelId}
            aria-describedby={errorId}
            aria-invalid={error ? true : undefined}
            rows={16}
            className="block min-h-64 w-full resize-y rounded-lg bg-transparent px-3 py-3 font-mono text-[0.95rem] focus:outline-none"
          />
          <div ref={host} hidden={editor === undefined} />
        </div>
        <div
          id={`${id}-panel-preview`}
          role="tabpanel"
          aria-labelledby={`${id}-tab-preview`}
          className={`${paneClass} relative overflow-auto px-4 py-3 ${tab === 'preview' ? '' : 'max-lg:hidden'}`}
        >
          <MarkdownPreview source={value} flavour={flavour} />
        </div>
      </div>
      <FieldError id={errorId} error={error} />
      {imageFolder ? (
        <ContentImageUpload
          label="画像を追加"
          folder={imageFolder}
          onUploaded={({ url }) =>
            insertText(imageMarkdown(imageAlt(imageSubject, latest.current.value), url), true)
          }
        />
      ) : null}
    </div>
  )
}

function EditorTab(props: {
  id: string
  tab: Tab
  selected: Tab
  onSelect(tab: Tab): void
  children: string
}) {
  const selected = props.tab === props.selected
  return (
    <button
      type="button"
      role="tab"
      id={`${props.id}-tab-${props.tab}`}
      aria-controls={`${props.id}-panel-${props.tab}`}
      aria-selected={selected}
      onClick={() => props.onSelect(props.tab)}
      className={`rounded-md px-3 py-1 text-sm ${
        selected
          ? 'bg-brand-600 font-semibold text-white'
          : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
      }`}
    >
      {props.children}
    </button>
  )
}

/**
 * The preview loads the renderer (Shiki's grammars included) as its own chunk on first use, and
 * renders a deferred copy of the text so typing stays responsive on long documents.
 */
export function MarkdownPreview({ source, flavour }: { source: string; flavour: MarkdownFlavour }) {
  const [render, setRender] = useState<Renderer>()
  const deferred = useDeferredValue(source)

  useEffect(() => {
    let cancelled = false
    import('#features/markdown/render.ts').then(({ renderMarkdown }) => {
      if (!cancelled) setRender(() => (text: string) => renderMarkdown(text, flavour))
    })
    return () => {
      cancelled = true
    }
  }, [flavour])

  const preview = useMemo(() => previewOf(deferred, render), [deferred, render])
  if (preview.kind === 'html') return <MarkdownView html={preview.html} />
  return <p className="text-sm text-slate-600 dark:text-slate-400">{preview.message}</p>
}

export type Preview = { kind: 'html'; html: string } | { kind: 'message'; message: string }

/** What the preview pane shows: the rendering, or why there is none (yet). */
export function previewOf(source: string, render: Renderer | undefined): Preview {
  // Over the limit the body is refused on save, so it is not rendered here either.
  if (isMarkdownTooLong(source)) return { kind: 'message', message: MARKDOWN_TOO_LONG_MESSAGE }
  // Nor when it breaks the structure bounds: the same message the save answers with.
  const structure = markdownStructureError(source)
  if (structure) return { kind: 'message', message: structure }
  if (!render) return { kind: 'message', message: 'プレビューを準備しています…' }
  if (source.trim() === '')
    return { kind: 'message', message: 'プレビューする内容はまだありません。' }
  return { kind: 'html', html: render(source) }
}
