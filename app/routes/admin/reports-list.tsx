import { Link } from 'react-router'
import { StatusFilterNav } from '#app/components/admin-parts.tsx'
import { EmptyState } from '#app/components/empty-state.tsx'
import { ADMIN_HEADERS } from '#app/lib/admin.server.ts'
import { formatDateTime } from '#app/lib/format.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { requireModerator } from '#app/lib/moderation.server.ts'
import { listReportQueue, type QueueStatus } from '#features/moderation/moderation.server.ts'
import { REPORT_REASONS, REPORT_SUBJECTS } from '#features/moderation/report-labels.ts'
import type { Route } from './+types/reports-list'

export function headers() {
  return ADMIN_HEADERS
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: '報告の管理', description: '報告された対象の一覧です。' })

const FILTERS: { value: QueueStatus; label: string }[] = [
  { value: 'open', label: '未対応' },
  { value: 'resolved', label: '対応済み' },
]

export async function loader({ context, request }: Route.LoaderArgs) {
  const moderator = await requireModerator(context, request)
  const status: QueueStatus =
    new URL(request.url).searchParams.get('status') === 'resolved' ? 'resolved' : 'open'
  return { status, entries: await listReportQueue(context.db, moderator, status) }
}

/** /admin/reports: reported items, one row per item with its count and reasons, newest first. */
export default function ReportsList({ loaderData }: Route.ComponentProps) {
  const { status, entries } = loaderData
  return (
    <div>
      <h1 className="text-2xl font-bold">報告</h1>
      <StatusFilterNav
        filters={FILTERS}
        current={status}
        path="/admin/reports"
        defaultValue={'open'}
      />
      {entries.length === 0 ? (
        <div className="mt-6">
          <EmptyState
            title={status === 'open' ? '未対応の報告はありません' : '対応済みの報告はありません'}
          />
        </div>
      ) : (
        <ul className="mt-6 divide-y divide-slate-200 dark:divide-slate-700" data-testid="reports">
          {entries.map((entry) => (
            <li key={`${entry.kind}:${entry.id}`} className="py-3">
              <Link
                to={`/admin/reports/${entry.kind}/${entry.id}`}
                className="font-semibold text-brand-700 hover:underline dark:text-sky-300"
              >
                {REPORT_SUBJECTS[entry.kind]}: {entry.subject?.title ?? '（削除済み）'}
              </Link>
              <span className="ml-2 rounded bg-slate-100 px-2 py-0.5 text-xs dark:bg-slate-800">
                報告 {entry.count} 件
              </span>
              {entry.subject?.hidden && (
                <span className="ml-2 rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-950">
                  非表示中
                </span>
              )}
              {entry.subject?.owner?.suspendedAt != null && (
                <span className="ml-2 rounded bg-red-100 px-2 py-0.5 text-xs text-red-950">
                  利用停止中
                </span>
              )}
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                理由: {entry.reasons.map((reason) => REPORT_REASONS[reason]).join('、')}
                {entry.subject?.owner && `・投稿者 @${entry.subject.owner.username}`}
              </p>
              {entry.subject?.excerpt && (
                <p className="mt-1 line-clamp-2 text-sm text-slate-700 dark:text-slate-300">
                  {entry.subject.excerpt}
                </p>
              )}
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                最新の報告:{' '}
                <time dateTime={new Date(entry.latestAt).toISOString()}>
                  {formatDateTime(entry.latestAt)}
                </time>
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
