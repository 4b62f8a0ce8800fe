import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { ApiRequestError, callApi } from '#app/lib/api/client.ts'
import { useSettings } from '#app/lib/root-data.ts'
import type { ModerationSubjectKind, ReportReason } from '#db/schema.ts'
import {
  REPORT_NOTE_MAX,
  REPORT_REASONS,
  REPORT_SUBJECTS,
} from '#features/moderation/report-labels.ts'

const REASONS = Object.entries(REPORT_REASONS) as [ReportReason, string][]

/**
 * The report form in the browser's own modal `<dialog>` (focus moves into it, Escape closes
 * it, the rest of the page is inert): the reasons as radio buttons, an optional note.
 */
export default function ReportDialog(props: {
  kind: ModerationSubjectKind
  id: string
  /** Changes on each click of the button: the dialog opens again. */
  opened: number
  onSent(confirmation: string): void
  onClose(): void
}) {
  const { apiGatewayUrl } = useSettings()
  const dialog = useRef<HTMLDialogElement>(null)
  const [reason, setReason] = useState<ReportReason | ''>('')
  const [note, setNote] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const id = useId()
  const label = REPORT_SUBJECTS[props.kind]

  // biome-ignore lint/correctness/useExhaustiveDependencies: each new `opened` opens it again
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal()
  }, [props.opened])

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!reason) {
      setError('理由を選んでください')
      return
    }
    setSending(true)
    try {
      const receipt = await callApi(apiGatewayUrl, 'moderation.report', {
        body: { kind: props.kind, id: props.id, reason, note },
      })
      setError(null)
      setReason('')
      setNote('')
      dialog.current?.close()
      props.onSent(
        receipt.updated
          ? '以前の報告を更新しました。ご協力ありがとうございます。'
          : '報告を受け付けました。運営が内容を確認します。ご協力ありがとうございます。',
      )
    } catch (caught) {
      setError(
        caught instanceof ApiRequestError
          ? (caught.fields?.note?.[0] ?? caught.fields?.reason?.[0] ?? caught.message)
          : '報告を送れませんでした。通信状態を確かめて、もう一度お試しください。',
      )
    } finally {
      setSending(false)
    }
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      onClose={() => {
        setError(null)
        props.onClose()
      }}
      className="m-auto w-[min(32rem,92vw)] rounded-lg bg-white p-5 text-left text-slate-900 shadow-xl backdrop:bg-black/40 dark:bg-slate-900 dark:text-slate-100"
    >
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <h2 id={`${id}-title`} className="text-lg font-bold">
          この{label}を報告する
        </h2>
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-1 font-semibold">理由（必須）</legend>
          {REASONS.map(([key, text]) => (
            <label key={key} className="flex items-center gap-2">
              <input
                type="radio"
                name="reason"
                value={key}
                checked={reason === key}
                onChange={() => setReason(key)}
                required
              />
              {text}
            </label>
          ))}
        </fieldset>
        <label htmlFor={`${id}-note`} className="flex flex-col gap-1">
          <span className="font-semibold">
            補足（任意、{REPORT_NOTE_MAX.toLocaleString('ja-JP')} 文字まで）
          </span>
          <textarea
            id={`${id}-note`}
            name="note"
            value={note}
            maxLength={REPORT_NOTE_MAX}
            rows={4}
            onChange={(event) => setNote(event.target.value)}
            className="rounded-md border border-slate-400 bg-white px-2 py-1 text-slate-900 dark:bg-slate-800 dark:text-slate-100"
          />
        </label>
        {error && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        )}
        <p className="text-sm text-slate-600 dark:text-slate-400">
          報告した人の名前が相手に知らされることはありません。
        </p>
        <div className="flex justify-end gap-3">
          <button
            type="button"
            onClick={() => dialog.current?.close()}
            className="rounded-md px-3 py-1.5 underline"
          >
            キャンセル
          </button>
          <button
            type="submit"
            disabled={sending}
            className="rounded-md bg-red-700 px-4 py-1.5 font-semibold text-white disabled:opacity-60"
          >
            {sending ? '送信中…' : '報告を送る'}
          </button>
        </div>
      </form>
    </dialog>
  )
}
