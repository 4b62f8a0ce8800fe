import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { HiddenNotice, ReportButton } from '#app/components/moderation/moderation-marks.tsx'
import { ShareButtons } from '#app/components/share-buttons.tsx'
import { TagLinks } from '#app/components/tag-links.tsx'
import { formatDate } from '#app/lib/format.ts'
import { profilePath } from '#features/content-kinds.ts'
import { REPORT_SUBJECTS } from '#features/moderation/report-labels.ts'

/** The top of a lab's or a story's page: breadcrumb, draft badge, tags, title and author. */
export function ContentHeader(props: {
  section: { to: string; label: string }
  item: {
    title: string
    status: 'draft' | 'published'
    tags: string[]
    publishedAt: number | null
    id: string
    author: { username: string; displayName: string }
    hidden: { at: number; reason: string } | null
  }
  /** What the item is, for the moderation notice and the report button. */
  kind: 'lab' | 'lab_story'
  /** The item's own page: published items get share buttons for it. */
  path: string
  children?: ReactNode
}) {
  const { item } = props
  return (
    <>
      <nav aria-label="パンくずリスト" className="text-sm text-slate-500 dark:text-slate-400">
        <Link to={props.section.to} className="hover:underline">
          {props.section.label}
        </Link>
        <span aria-hidden="true"> / </span>
        <span>{item.title}</span>
      </nav>
      <header className="mt-4">
        <div className="flex flex-wrap items-center gap-2 text-xs">
          {item.status === 'draft' && (
            <span className="rounded-full bg-slate-800 px-2 py-0.5 font-semibold text-white dark:bg-slate-200 dark:text-slate-900">
              下書き
            </span>
          )}
          <TagLinks tags={item.tags} />
        </div>
        <HiddenNotice hidden={item.hidden} what={REPORT_SUBJECTS[props.kind]} />
        <h1 className="mt-3 text-3xl font-bold leading-tight">{item.title}</h1>
        <p className="mt-4 text-sm text-slate-500 dark:text-slate-400">
          <Link to={profilePath(item.author.username)} className="hover:underline">
            {item.author.displayName}
          </Link>
          {item.publishedAt !== null && (
            <>
              <span aria-hidden="true"> ・ </span>
              <time dateTime={new Date(item.publishedAt).toISOString()}>
                {formatDate(item.publishedAt)} 公開
              </time>
            </>
          )}
        </p>
        {props.children && <div className="mt-6 flex flex-wrap gap-3">{props.children}</div>}
        {item.status === 'published' && (
          <div className="mt-6">
            <ShareButtons path={props.path} title={item.title} />
            <ReportButton kind={props.kind} id={item.id} ownerUsername={item.author.username} />
          </div>
        )}
      </header>
    </>
  )
}

export const actionLinkClass =
  'rounded-md border border-slate-300 px-4 py-2.5 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800'
