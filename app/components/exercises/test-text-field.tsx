import { useId } from 'react'
import { MAX_TEST_TEXT_BYTES } from '#features/exercises/code-run.ts'

/** A test's stdin or expected output: monospaced, as the program reads and prints it. */
export function TestTextField(props: {
  label: string
  value: string
  error?: string
  rows?: number
  onChange(value: string): void
}) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={id} className="font-semibold">
        {props.label}
      </label>
      <textarea
        id={id}
        value={props.value}
        rows={props.rows ?? 8}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        maxLength={MAX_TEST_TEXT_BYTES}
        aria-describedby={props.error ? errorId : undefined}
        onChange={(event) => props.onChange(event.target.value)}
        className="rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm dark:border-slate-600 dark:bg-slate-950"
      />
      <span id={errorId} className="min-h-5 text-red-700 dark:text-red-400">
        {props.error}
      </span>
    </div>
  )
}
