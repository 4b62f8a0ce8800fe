import { lazy, Suspense, useRef, useState } from 'react'
import { useCurrentUser } from '#app/lib/root-data.ts'
import { REPORT_SUBJECTS } from '#features/moderation/report-labels.ts'
import type { ReportButtonProps } from './moderation-marks.tsx'

// The dialog (and the API client it sends with) loads on first use.
const ReportDialog = lazy(() => import('./report-dialog.tsx'))

/** The report button itself (see ReportButton), loaded for signed-in readers only. */
export default function ReportAction(props: ReportButtonProps) {
  const me = useCurrentUser()
  const opener = useRef<HTMLButtonElement>(null)
  // Bumped by each click: the dialog opens on mount and again on each new value.
  const [opened, setOpened] = useState(0)
  const [done, setDone] = useState<string | null>(null)
  if (!me || me.username === props.ownerUsername?.toLowerCase()) return null
  return (
    <>
      <button
        ref={opener}
        type="button"
        aria-haspopup="dialog"
        onClick={() => {
          setDone(null)
          setOpened((count) => count + 1)
        }}
        className={
          props.className ??
          'text-sm text-slate-600 underline hover:no-underline dark:text-slate-400'
        }
      >
        報告する
        <span className="sr-only">（{REPORT_SUBJECTS[props.kind]}）</span>
      </button>
      {done && (
        <span role="status" className="text-sm text-slate-700 dark:text-slate-300">
          {done}
        </span>
      )}
      {opened > 0 && (
        <Suspense fallback={null}>
          <ReportDialog
            kind={props.kind}
            id={props.id}
            opened={opened}
            onSent={setDone}
            onClose={() => opener.current?.focus()}
          />
        </Suspense>
      )}
    </>
  )
}
