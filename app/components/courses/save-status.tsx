import type { AutosaveState } from '#app/lib/use-autosave.ts'

const LABELS: Record<AutosaveState, string> = {
  saved: '保存済み',
  dirty: '未保存の変更があります',
  saving: '保存しています…',
  failed: '保存できませんでした',
}

/**
 * Where an autosaving form says whether its changes reached the server, and why not. A create
 * form with nothing saved yet (`unsaved`) claims nothing until its first change.
 */
export function SaveStatus({
  state,
  problem,
  unsaved = false,
}: {
  state: AutosaveState
  problem?: string
  unsaved?: boolean
}) {
  // The live region stays, so the first change is announced.
  if (unsaved && state === 'saved') return <div className="text-sm" aria-live="polite" />
  return (
    <div className="text-sm" aria-live="polite">
      <span
        data-save-state={state}
        className={
          state === 'failed'
            ? 'font-semibold text-red-700 dark:text-red-400'
            : 'text-slate-500 dark:text-slate-400'
        }
      >
        {LABELS[state]}
      </span>
      {state === 'failed' && problem && (
        <p role="alert" className="mt-1 text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
    </div>
  )
}
