import { Link } from 'react-router'
import { formatDateTime } from '#app/lib/format.ts'

/**
 * An admin list's status filter as links (the state is the URL). Not NavLink: it ignores the
 * query, and would mark every filter current.
 */
export function StatusFilterNav<Value extends string | null>(props: {
  filters: readonly { value: Value; label: string }[]
  current: Value
  /** The list's own path: where the default filter (`defaultValue`) links. */
  path: string
  defaultValue: Value
}) {
  return (
    <nav aria-label="状態で絞り込む" className="mt-4">
      <ul className="flex flex-wrap gap-2">
        {props.filters.map((filter) => {
          const active = filter.value === props.current
          return (
            <li key={filter.label}>
              <Link
                to={filter.value === props.defaultValue ? props.path : `?status=${filter.value}`}
                className={`inline-block rounded-full border px-3 py-1 text-sm ${
                  active
                    ? 'border-brand-600 bg-brand-600 font-semibold text-white'
                    : 'border-slate-300 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800'
                }`}
                aria-current={active ? 'page' : undefined}
              >
                {filter.label}
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

/** 「対応の記録」: what admins did about an item, oldest first, with who, when and their note. */
export function ActionLog(props: {
  entries: readonly { id: string; label: string; actor: string; at: number; note: string | null }[]
  testId?: string
}) {
  return (
    <>
      <h2 className="mt-8 text-lg font-bold">対応の記録</h2>
      {props.entries.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">まだ対応していません。</p>
      ) : (
        <ol className="mt-2 flex flex-col gap-3" data-testid={props.testId}>
          {props.entries.map((entry) => (
            <li key={entry.id} className="rounded-lg bg-slate-50 p-3 dark:bg-slate-900">
              <p className="text-xs text-slate-600 dark:text-slate-400">
                {entry.label}・{entry.actor}・
                <time dateTime={new Date(entry.at).toISOString()}>{formatDateTime(entry.at)}</time>
              </p>
              {entry.note && <p className="mt-1 whitespace-pre-wrap">{entry.note}</p>}
            </li>
          ))}
        </ol>
      )}
    </>
  )
}
