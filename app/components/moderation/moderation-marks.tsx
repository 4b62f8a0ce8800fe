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

// The report button and the hidden notice share one module: both sit on the pages guests read
// (one chunk, not two, in their first load).

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

/**
 * What the author (or an admin) sees on an item moderation hid (decision 039): nobody else
 * sees the item at all.
 */
export function HiddenNotice({
  hidden,
  what,
}: {
  hidden: { at: number; reason: string } | null
  what: string
}) {
  if (!hidden) return null
  return (
    <div
      role="note"
      data-moderation-hidden
      className="rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-semibold">この{what}は運営により非表示になっています。</p>
      <p>理由: {hidden.reason}</p>
      <p>あなた（と管理者）のほかには表示されません。心当たりがない場合はお問い合わせください。</p>
    </div>
  )
}
