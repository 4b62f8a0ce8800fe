import type { ReactNode } from 'react'
import { Link } from 'react-router'

export type EmptyStateAction = { to: string; label: string }

/** What a list or page shows when there is nothing (yet): a message and where to go next. */
export function EmptyState(props: {
  title: string
  children?: ReactNode
  actions?: readonly EmptyStateAction[]
}) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 px-6 py-12 text-center dark:border-slate-700">
      <p className="text-lg font-semibold">{props.title}</p>
      {props.children && (
        <div className="mx-auto mt-2 max-w-prose text-slate-600 dark:text-slate-400">
          {props.children}
        </div>
      )}
      {props.actions && props.actions.length > 0 && (
        <ul className="mt-6 flex flex-wrap justify-center gap-3">
          {props.actions.map((action, index) => (
            <li key={action.to}>
              <Link
                to={action.to}
                className={
                  index === 0
                    ? 'inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700'
                    : 'inline-block rounded-md border border-slate-300 px-4 py-2 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800'
                }
              >
                {action.label}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
