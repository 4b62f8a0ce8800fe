import { Check, TriangleAlert } from 'lucide-react'
import {
  type InputHTMLAttributes,
  type MouseEvent,
  type ReactNode,
  type RefObject,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react'
import { passwordChecks } from '#app/lib/auth/password-rules.ts'

/**
 * Form pieces for the sign-in screens and settings: every field has a visible label, its
 * hint and error are tied to it with aria-describedby, the error line keeps its space so
 * nothing jumps when a message appears, and buttons show that they are working.
 */

export type FieldErrors = Partial<Record<string, string>>

const inputClass =
  'block w-full rounded-lg border bg-white px-3 py-2.5 text-base text-slate-900 shadow-xs transition-colors focus:outline-none focus:ring-3 disabled:opacity-60 dark:bg-slate-900 dark:text-slate-100'

function borderClass(invalid: boolean) {
  return invalid
    ? 'border-red-600 focus:ring-red-500/30 dark:border-red-400'
    : 'border-slate-300 focus:border-brand-500 focus:ring-brand-500/30 dark:border-slate-600'
}

type FieldProps = {
  label: string
  name: string
  error?: string
  hint?: ReactNode
  /** Something shown beside the label (a link such as "パスワードをお忘れの方"). */
  labelAside?: ReactNode
  children?: ReactNode
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'children'>

export function TextField({
  label,
  name,
  error,
  hint,
  labelAside,
  children,
  ...input
}: FieldProps) {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [hint ? hintId : '', error ? errorId : '', input['aria-describedby'] ?? '']
    .filter(Boolean)
    .join(' ')
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-semibold">
          {label}
        </label>
        {labelAside}
      </div>
      {hint && (
        <div id={hintId} className="text-xs leading-relaxed text-slate-600 dark:text-slate-400">
          {hint}
        </div>
      )}
      <input
        {...input}
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={`${inputClass} ${borderClass(Boolean(error))} ${input.className ?? ''}`}
      />
      {children}
      <FieldError id={errorId} error={error} />
    </div>
  )
}

/** The line under a field: empty but present, so a message does not push the form down. */
export function FieldError({ id, error }: { id: string; error?: string }) {
  return (
    <p id={id} className="min-h-5 text-sm leading-5 text-red-700 dark:text-red-300">
      {error && (
        <>
          <TriangleAlert aria-hidden="true" className="mr-1 inline size-4 align-[-0.2em]" />
          {error}
        </>
      )}
    </p>
  )
}

/**
 * A password with a "show" switch and, for a new password, the live checklist of the
 * policy (8+ characters, upper, lower, digit, symbol) that updates as the person types.
 */
export function PasswordField(
  props: Omit<FieldProps, 'type'> & { checklist?: boolean; defaultValue?: string },
) {
  const { checklist, ...field } = props
  const [visible, setVisible] = useState(false)
  const [value, setValue] = useState(props.defaultValue ?? '')
  const checklistId = useId()
  const toggle = (
    <button
      type="button"
      onClick={() => setVisible((shown) => !shown)}
      aria-pressed={visible}
      className="shrink-0 rounded px-1 text-xs font-semibold text-brand-600 hover:underline dark:text-sky-300"
    >
      {visible ? 'パスワードを隠す' : 'パスワードを表示'}
    </button>
  )
  return (
    <TextField
      {...field}
      type={visible ? 'text' : 'password'}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      labelAside={props.labelAside ?? toggle}
      aria-describedby={checklist ? checklistId : undefined}
      onChange={(event) => {
        setValue(event.currentTarget.value)
        props.onChange?.(event)
      }}
    >
      {props.labelAside && <div className="flex justify-end">{toggle}</div>}
      {checklist && <PasswordChecklist id={checklistId} password={value} />}
    </TextField>
  )
}

export function PasswordChecklist({ id, password }: { id: string; password: string }) {
  const checks = passwordChecks(password)
  return (
    <ul id={id} className="mt-1 grid grid-cols-2 gap-x-4 gap-y-0.5 text-xs">
      <li className="col-span-2 text-slate-600 dark:text-slate-400">次をすべて含めてください:</li>
      {checks.map((check) => (
        <li
          key={check.id}
          data-rule={check.id}
          data-met={check.met}
          className={`flex items-center gap-1.5 ${
            check.met
              ? 'text-emerald-700 dark:text-emerald-300'
              : 'text-slate-600 dark:text-slate-400'
          }`}
        >
          <span
            aria-hidden="true"
            className={`grid size-4 shrink-0 place-items-center rounded-full text-[10px] leading-none ${
              check.met
                ? 'bg-emerald-600 text-white dark:bg-emerald-400 dark:text-slate-950'
                : 'border border-slate-400 dark:border-slate-500'
            }`}
          >
            {check.met && <Check className="size-3" strokeWidth={3} />}
          </span>
          {check.label}
          <span className="sr-only">{check.met ? '（満たしています）' : '（まだです）'}</span>
        </li>
      ))}
    </ul>
  )
}

/** A one-time code: six digits, the phone's code autofill, no spelling help. */
export function CodeField(props: Omit<FieldProps, 'type' | 'inputMode'>) {
  return (
    <TextField
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9０-９ ]*"
      maxLength={8}
      spellCheck={false}
      {...props}
      className="font-mono text-lg tracking-[0.4em]"
    />
  )
}

export function SubmitButton(props: {
  pending: boolean
  children: ReactNode
  pendingLabel?: string
  name?: string
  value?: string
  variant?: 'primary' | 'secondary' | 'danger'
  className?: string
  /** Runs on a click while not pending (useConfirmedSubmit's question, for one). */
  onClick?: (event: MouseEvent<HTMLButtonElement>) => void
}) {
  const variant = props.variant ?? 'primary'
  const colours = {
    primary: 'bg-brand-600 text-white hover:bg-brand-700',
    secondary:
      'border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800',
    danger: 'bg-red-700 text-white hover:bg-red-800',
  }[variant]
  return (
    <button
      type="submit"
      name={props.name}
      value={props.value}
      aria-disabled={props.pending || undefined}
      onClick={(event) => {
        // Not `disabled`: a disabled button loses focus, and screen readers lose their place.
        if (props.pending) event.preventDefault()
        else props.onClick?.(event)
      }}
      className={`relative inline-flex min-h-11 items-center justify-center rounded-lg px-5 py-2.5 font-semibold transition-colors aria-disabled:cursor-progress aria-disabled:opacity-80 ${colours} ${props.className ?? ''}`}
    >
      <span className={props.pending ? 'invisible' : undefined}>{props.children}</span>
      {props.pending && (
        <span className="absolute inset-0 flex items-center justify-center gap-2">
          <Spinner />
          <span>{props.pendingLabel ?? '処理中…'}</span>
        </span>
      )}
    </button>
  )
}

export function Spinner() {
  return (
    <span
      aria-hidden="true"
      className="size-4 animate-spin rounded-full border-2 border-current border-r-transparent"
    />
  )
}

/** A message about the whole form: an error (announced at once) or a notice. */
export function FormMessage({
  tone,
  children,
  focusRef,
}: {
  tone: 'error' | 'success' | 'info'
  children: ReactNode
  focusRef?: RefObject<HTMLDivElement | null>
}) {
  const colours = {
    error:
      'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100',
    success:
      'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-100',
    info: 'border-brand-100 bg-brand-50 text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100',
  }[tone]
  return (
    <div
      ref={focusRef}
      tabIndex={focusRef ? -1 : undefined}
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-lg border px-4 py-3 text-sm leading-relaxed focus:outline-none ${colours}`}
    >
      {children}
    </div>
  )
}

/**
 * After a submission comes back with errors, moves focus to the first field in error (in
 * the order of the form), or to the form's message when no field is to blame.
 */
export function useFocusOnErrors(
  result: { errors?: FieldErrors; formError?: string } | undefined,
  form: RefObject<HTMLFormElement | null>,
  message: RefObject<HTMLDivElement | null>,
) {
  const last = useRef<unknown>(undefined)
  useEffect(() => {
    if (!result || result === last.current) return
    last.current = result
    const invalid = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')
    if (invalid) invalid.focus()
    else if (result.formError) message.current?.focus()
  }, [result, form, message])
}

/** A multi-line field, labelled and described like TextField. */
export function TextAreaField({
  label,
  name,
  error,
  hint,
  ...textarea
}: {
  label: string
  name: string
  error?: string | undefined
  hint?: ReactNode
} & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name'>) {
  const id = useId()
  const describedBy = [hint ? `${id}-hint` : '', `${id}-error`].filter(Boolean).join(' ')
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      {hint && (
        <div
          id={`${id}-hint`}
          className="text-xs leading-relaxed text-slate-600 dark:text-slate-400"
        >
          {hint}
        </div>
      )}
      <textarea
        {...textarea}
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`${inputClass} ${borderClass(Boolean(error))} ${textarea.className ?? ''}`}
      />
      <FieldError id={`${id}-error`} error={error} />
    </div>
  )
}

/** A choice among a few options, labelled and described like TextField. */
export function SelectField({
  label,
  name,
  error,
  options,
  placeholder,
  ...select
}: {
  label: string
  name: string
  error?: string | undefined
  options: readonly { value: string; label: string }[]
  /** The first, empty option (nothing chosen yet). */
  placeholder?: string
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name' | 'children'>) {
  const id = useId()
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      <select
        {...select}
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-error`}
        className={`${inputClass} ${borderClass(Boolean(error))} ${select.className ?? ''}`}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  )
}
