import {
  type MouseEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react'
import { useSubmit } from 'react-router'

/** What a confirmation asks: a question, what follows from it, and the button that goes ahead. */
export type ConfirmRequest = {
  title: string
  body?: string
  /** The button that goes ahead: 「削除する」, 「ブロックする」 (never a bare 「OK」). */
  confirmLabel: string
  /** `danger` for what cannot be undone. */
  tone?: 'danger' | 'primary'
}

const BUTTON =
  'inline-flex min-h-11 items-center justify-center rounded-lg px-4 py-2 text-sm font-semibold'
const TONES = {
  danger: 'bg-red-700 text-white hover:bg-red-800',
  primary: 'bg-brand-600 text-white hover:bg-brand-700',
}

/**
 * The site's confirmation, in place of the browser's `confirm()`: `confirm(request)` opens a
 * modal `<dialog>` (focus moves into it, to 「キャンセル」, the safe answer; Escape cancels; the
 * page behind is inert; focus goes back where it was) and resolves to whether the person went
 * ahead. Render the returned element anywhere in the component.
 */
export function useConfirm(): [(request: ConfirmRequest) => Promise<boolean>, ReactNode] {
  const [open, setOpen] = useState<(ConfirmRequest & { resolve(ok: boolean): void }) | null>(null)
  const confirm = useCallback(
    (request: ConfirmRequest) =>
      new Promise<boolean>((resolve) => setOpen({ ...request, resolve })),
    [],
  )
  const element = open && (
    <ConfirmDialog
      {...open}
      onAnswer={(ok) => {
        setOpen(null)
        open.resolve(ok)
      }}
    />
  )
  return [confirm, element]
}

/**
 * For a submit button of a router `<Form>`: `ask(request)` is its onClick, which asks first and
 * then submits the form as that button would (its name and value included). Before hydration
 * the button submits without asking, as a plain form does.
 */
export function useConfirmedSubmit(): [
  (request: ConfirmRequest) => (event: MouseEvent<HTMLButtonElement>) => void,
  ReactNode,
] {
  const [confirm, element] = useConfirm()
  const submit = useSubmit()
  const ask = (request: ConfirmRequest) => (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault()
    const button = event.currentTarget
    void confirm(request).then((ok) => {
      if (ok) void submit(button)
    })
  }
  return [ask, element]
}

function ConfirmDialog(props: ConfirmRequest & { onAnswer(ok: boolean): void }) {
  const dialog = useRef<HTMLDialogElement>(null)
  const answered = useRef(false)
  const id = useId()
  useEffect(() => {
    const element = dialog.current
    if (element && !element.open) element.showModal()
  }, [])

  function answer(ok: boolean) {
    if (answered.current) return
    answered.current = true
    dialog.current?.close()
    props.onAnswer(ok)
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={props.body ? `${id}-body` : undefined}
      // Escape, or the browser closing it: the same as 「キャンセル」.
      onClose={() => answer(false)}
      className="m-auto w-[min(28rem,92vw)] rounded-lg bg-white p-5 text-left text-slate-900 shadow-xl backdrop:bg-black/40 dark:bg-slate-900 dark:text-slate-100"
      data-confirm-dialog
    >
      <h2 id={`${id}-title`} className="text-lg font-bold">
        {props.title}
      </h2>
      {props.body && (
        <p id={`${id}-body`} className="mt-2 text-sm leading-relaxed">
          {props.body}
        </p>
      )}
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        <button
          type="button"
          // biome-ignore lint/a11y/noAutofocus: a dialog moves focus to its safe answer
          autoFocus
          onClick={() => answer(false)}
          className={`${BUTTON} border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800`}
        >
          キャンセル
        </button>
        <button
          type="button"
          onClick={() => answer(true)}
          className={`${BUTTON} ${TONES[props.tone ?? 'danger']}`}
        >
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  )
}
