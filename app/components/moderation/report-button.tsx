import { lazy, Suspense, useEffect, useState } from 'react'
import { useCurrentUser } from '#app/lib/root-data.ts'
import type { ModerationSubjectKind } from '#db/schema.ts'

export type ReportButtonProps = {
  kind: ModerationSubjectKind
  /** The item's id; a user's username. */
  id: string
  /** The author of the item (or the user): nobody reports themselves. */
  ownerUsername?: string | undefined
  className?: string
}

// Loaded only for a signed-in reader, once the page is interactive: the button sits on pages
// guests read, whose first-load JavaScript has a budget (decision 029), and it needs script.
const ReportAction = lazy(() => import('./report-action.tsx'))

/**
 * 「報告する」: opens a modal dialog with the fixed reasons and an optional note, sent to
 * /api/reports. Only signed-in users who are not the item's author see it; the server checks
 * both again.
 */
export function ReportButton(props: ReportButtonProps) {
  const me = useCurrentUser()
  const [interactive, setInteractive] = useState(false)
  useEffect(() => setInteractive(true), [])
  if (!me || !interactive || me.username === props.ownerUsername?.toLowerCase()) return null
  return (
    <Suspense fallback={null}>
      <ReportAction {...props} />
    </Suspense>
  )
}
