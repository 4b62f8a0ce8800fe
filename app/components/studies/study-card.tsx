import { Link } from 'react-router'
import { Byline } from '#app/components/byline.tsx'
import { TagLinks } from '#app/components/tag-links.tsx'
import { contentPath } from '#features/content-kinds.ts'
import type { StudyCard as Study } from '#features/studies/study-lists.server.ts'

export function StudyCard({ study }: { study: Study }) {
  return (
    <article className="flex h-full flex-col rounded-xl border border-slate-200 p-5 transition hover:border-brand-500 hover:shadow-sm dark:border-slate-800">
      <h3 className="text-lg font-semibold leading-snug">
        <Link
          to={contentPath('study', study.author.username, study.id)}
          className="hover:underline"
          prefetch="intent"
        >
          {study.title}
        </Link>
      </h3>
      <p className="mt-2 line-clamp-3 flex-1 text-sm text-slate-600 dark:text-slate-400">
        {study.summary}
      </p>
      <p className="mt-3 flex flex-wrap gap-2 text-xs">
        <TagLinks tags={study.tags} />
      </p>
      <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
        <Byline author={study.author} publishedAt={study.publishedAt} />
      </p>
    </article>
  )
}
