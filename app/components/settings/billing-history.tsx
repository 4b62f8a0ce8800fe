import { Link } from 'react-router'
import { planDate } from '#app/components/plans/plan-dates.ts'
import type { BillingHistoryEntry } from '#features/plans/billing-history.server.ts'
import { formatYen } from '#features/plans/plan-catalogue.ts'

const PLAN_LABELS = {
  'premium-monthly': 'プレミアム（月額）',
  'premium-yearly': 'プレミアム（年額）',
}

/** /settings#billing: every charge, newest first, with its receipt number. */
export function BillingHistory({ entries }: { entries: BillingHistoryEntry[] }) {
  if (entries.length === 0) {
    return (
      <p className="text-sm text-slate-700 dark:text-slate-300">
        お支払いの履歴はまだありません。
        <Link to="/plans" className="ml-1 underline">
          料金プランを見る
        </Link>
      </p>
    )
  }
  return (
    // Keyboard users scroll it too on a phone (it holds nothing focusable): focusable, named.
    <section
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus (axe)
      tabIndex={0}
      aria-label="お支払いの履歴（横にスクロールできます）"
      className="relative overflow-x-auto rounded focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">お支払いの履歴</caption>
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-800">
            <th scope="col" className="py-2 pr-3">
              日付
            </th>
            <th scope="col" className="py-2 pr-3">
              内容
            </th>
            <th scope="col" className="py-2 pr-3">
              金額（税込）
            </th>
            <th scope="col" className="py-2 pr-3">
              カード
            </th>
            <th scope="col" className="py-2">
              領収書番号
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id} className="border-b border-slate-100 dark:border-slate-900">
              <td className="py-2 pr-3 whitespace-nowrap">{planDate(entry.createdAt)}</td>
              <td className="py-2 pr-3">{PLAN_LABELS[entry.planId]}</td>
              <td className="py-2 pr-3 whitespace-nowrap">{formatYen(entry.amountYen)}</td>
              <td className="py-2 pr-3 whitespace-nowrap">{entry.card}</td>
              <td className="py-2 whitespace-nowrap">
                {entry.status === 'succeeded' ? entry.receiptNumber : 'お支払いできませんでした'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
