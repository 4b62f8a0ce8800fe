import { type ReactNode, useId } from 'react'
import type { FormResult } from '#app/lib/auth/flow.ts'

/** What the settings page's actions answer; `intent` says which form it belongs to. */
export type SettingsResult = FormResult & { intent?: string; done?: boolean }

/** One titled part of the settings page; `id` makes it a link target (`/settings#mfa`). */
export function Section(props: {
  title: string
  id?: string
  tone?: 'danger'
  children: ReactNode
}) {
  const headingId = useId()
  return (
    <section
      id={props.id}
      aria-labelledby={headingId}
      className={`scroll-mt-24 rounded-xl border p-5 sm:p-6 ${
        props.tone === 'danger'
          ? 'border-red-200 dark:border-red-900'
          : 'border-slate-200 dark:border-slate-800'
      }`}
    >
      <h2 id={headingId} className="text-lg font-bold">
        {props.title}
      </h2>
      <div className="mt-4">{props.children}</div>
    </section>
  )
}

/** What a section will hold once its service lands. */
export function Upcoming({ children }: { children: ReactNode }) {
  return (
    <div className="text-sm leading-relaxed text-slate-700 dark:text-slate-300">
      <p className="mb-2 inline-block rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-300">
        準備中
      </p>
      {children}
    </div>
  )
}
