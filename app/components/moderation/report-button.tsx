import { lazy, Suspense, useRef, useState } from 'react'
import { useCurrentUser } from '#app/lib/root-data.ts'
import type { ModerationSubjectKind } from '#db/schema.ts'
import { REPORT_SUBJECTS } from '#features/moderation/report-labels.ts'

// The dialog (and the API client it sends with) loads on first use: the button sits on pages
// guests read, whose first-load JavaScript has a budget (decision 029).
const ReportDialog = lazy(() => import('./report-dialog.tsx'))

/**
 * 「報告する」: opens a modal dialog with the fixed reasons and an optional note, sent to
 * /api/reports. Only signed-in users who are not the item's author see it; the server checks
 * both again.
 */
export function ReportButton(props: {
  kind: ModerationSubjectKind
  /** The item's id; a user's username. */
  id: string
  /** The author of the item (or the user): nobody reports themselves. */
  ownerUsername?: string | undefined
  className?: string
}) {
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
