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
