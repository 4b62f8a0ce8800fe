import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react'
import { type CodeLanguage, MAX_CODE_BYTES } from '#features/exercises/code-run.ts'
import { FieldError } from './forms.tsx'

type CodeEditorViewApi = typeof import('#app/lib/code-editor-view.client.ts')
type LoadedEditor = {
  api: CodeEditorViewApi
  editor: ReturnType<CodeEditorViewApi['createCodeEditorView']>
}

export type CodeEditorProps = {
  label: string
  language: CodeLanguage
  value: string
  onChange(value: string): void
  /** The form field name, when the program is posted with a form. */
  name?: string
  error?: string
  /** Visible lines (the editor's height). */
  rows?: number
  readOnly?: boolean
  /** The line a run's error points at, highlighted until the program is edited. */
  errorLine?: number
  /** Ctrl+Enter / ⌘+Enter inside the editor. */
  onRunShortcut?: () => void
}

/**
 * A program field: CodeMirror 6 with JavaScript or Python colours and indentation (the
 * Markdown editor's theme), loaded on the browser only; the server renders a plain textarea
 * with the same value, which works before the editor loads (and stays the field to post).
 * CodeMirror owns the text while it runs: changes flow out through `onChange`, and `value` is
 * pushed back in only when it differs (a reset), so IME composition is never interrupted.
 */
export function CodeEditor(props: CodeEditorProps) {
  const { label, language, value, onChange, name, error, rows = 10, readOnly, errorLine } = props
  const id = useId()
  const labelId = `${id}-label`
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const textarea = useRef<HTMLTextAreaElement>(null)
  const host = useRef<HTMLDivElement>(null)
  const [loaded, setLoaded] = useState<LoadedEditor>()
  const latest = useRef({ onChange, onRunShortcut: props.onRunShortcut })
  useLayoutEffect(() => {
    latest.current = { onChange, onRunShortcut: props.onRunShortcut }
  })
  const initial = useRef({ language, readOnly, rows })

  useEffect(() => {
    let created: LoadedEditor | undefined
    let cancelled = false
    import('#app/lib/code-editor-view.client.ts').then((api) => {
      const parent = host.current
      const fallback = textarea.current
      if (cancelled || !parent || !fallback) return
      const editor = api.createCodeEditorView({
        parent,
        doc: fallback.value,
        ...initial.current,
        labelledBy: labelId,
        describedBy: `${hintId} ${errorId}`,
        onChange: (next) => latest.current.onChange(next),
        onRunShortcut: () => latest.current.onRunShortcut?.(),
      })
      created = { api, editor }
      setLoaded(created)
    })
    return () => {
      cancelled = true
      created?.editor.view.destroy()
    }
  }, [labelId, hintId, errorId])

  useEffect(() => {
    if (loaded) loaded.api.replaceCodeDocument(loaded.editor.view, value)
  }, [loaded, value])
  useEffect(() => {
    loaded?.editor.setLanguage(language)
  }, [loaded, language])
  useEffect(() => {
    if (loaded) loaded.api.markErrorLine(loaded.editor.view, errorLine)
  }, [loaded, errorLine])

  return (
    <div className="flex flex-col gap-1 text-sm">
      <span id={labelId} className="font-semibold">
        {label}
      </span>
      <div className="min-w-0 rounded-lg border border-slate-300 bg-white dark:border-slate-600 dark:bg-slate-950">
        <textarea
          ref={textarea}
          name={name}
          value={value}
          rows={rows}
          readOnly={readOnly}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          data-language={language}
          maxLength={MAX_CODE_BYTES}
          hidden={loaded !== undefined}
          aria-labelledby={labelId}
          aria-describedby={`${hintId} ${errorId}`}
          aria-invalid={error ? true : undefined}
          onChange={(event) => onChange(event.target.value)}
          className="block w-full resize-y rounded-lg bg-transparent px-3 py-2 font-mono text-[0.95rem] focus:outline-none"
        />
        <div ref={host} hidden={loaded === undefined} data-language={language} />
      </div>
      <p id={hintId} className="text-xs text-slate-600 dark:text-slate-400">
        Tab でインデント、Esc の後に Tab で次の項目へ移動します。
        {props.onRunShortcut ? 'Ctrl+Enter（⌘+Enter）で実行します。' : ''}
      </p>
      <FieldError id={errorId} error={error} />
    </div>
  )
}
