import { useId, useRef, useState } from 'react'
import { useConfirm } from '#app/components/confirm-dialog.tsx'
import { reloadAfterAsking } from '#app/lib/use-leave-guard.ts'

/** A form's fields as the conflict banner shows them: a label and the text typed in it. */
export type TypedField = { label: string; text: string }

/** The typed fields as one text to copy: each non-empty one under its label. */
function typedText(fields: readonly TypedField[]): string {
  return fields
    .filter((field) => field.text.trim() !== '')
    .map((field) => `【${field.label}】\n${field.text}`)
    .join('\n\n')
}

/**
 * Shown when a save was refused as stale: the editor stops saving instead of overwriting. What
 * this tab holds is not saved anywhere, and reloading shows the other tab's version, so the
 * banner shows this tab's text and copies it to the clipboard; reloading without copying asks
 * first. Nothing typed is lost without the user choosing it.
 */
export function ConflictBanner({ what, typed }: { what: string; typed: readonly TypedField[] }) {
  const unsaved = typedText(typed)
  const id = useId()
  const text = useRef<HTMLTextAreaElement>(null)
  const [copy, setCopy] = useState<'not yet' | 'copied' | 'failed'>('not yet')
  const [confirm, confirmDialog] = useConfirm()

  async function copyText() {
    try {
      await navigator.clipboard.writeText(unsaved)
      setCopy('copied')
    } catch {
      // Clipboard access refused (permissions, an insecure origin): the text is selected
      // instead, for the user's own copy command.
      text.current?.select()
      setCopy('failed')
    }
  }

  async function reload() {
    const ask = copy !== 'copied' && unsaved.trim() !== ''
    const ok =
      !ask ||
      (await confirm({
        title: '再読み込みして最新の内容を表示しますか？',
        body: 'コピーしていない内容は失われます。',
        confirmLabel: '破棄して再読み込み',
      }))
    if (ok) reloadAfterAsking()
  }

  return (
    <div
      role="alert"
      className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100"
    >
      {confirmDialog}
      <p className="font-semibold">{what}はほかのタブまたは端末で更新されています。</p>
      <p className="mt-1 text-sm">
        上書きを防ぐため、この画面からの保存を止めました。再読み込みすると最新の内容が表示され、この画面で入力した内容は消えます。必要な部分をコピーしてから再読み込みし、最新の内容に書き足してください。
      </p>
      {unsaved.trim() !== '' && (
        <div className="mt-3 flex flex-col gap-1 text-sm">
          <label htmlFor={id} className="font-semibold">
            この画面の保存されていない内容
          </label>
          <textarea
            id={id}
            ref={text}
            readOnly
            value={unsaved}
            rows={6}
            data-unsaved-text
            className="rounded-md border border-red-200 bg-white p-2 font-mono text-sm text-slate-900 dark:border-red-800 dark:bg-slate-950 dark:text-slate-100"
          />
        </div>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        {unsaved.trim() !== '' && (
          <button
            type="button"
            onClick={() => void copyText()}
            className="rounded-md border border-red-700 px-3 py-1.5 text-sm font-semibold text-red-800 hover:bg-red-100 dark:border-red-400 dark:text-red-100 dark:hover:bg-red-900"
          >
            内容をコピーする
          </button>
        )}
        <button
          type="button"
          onClick={reload}
          className="rounded-md bg-red-700 px-3 py-1.5 text-sm font-semibold text-white"
        >
          再読み込みする
        </button>
        <span aria-live="polite" className="text-sm">
          {copy === 'copied' && 'コピーしました。'}
          {copy === 'failed' &&
            'コピーできませんでした。欄の内容を選択したので、Ctrl+C（Mac は ⌘+C）でコピーしてください。'}
        </span>
      </div>
    </div>
  )
}
