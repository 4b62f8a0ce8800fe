import { Link } from 'react-router'
import { contentPath } from '#features/content-kinds.ts'
import { type CourseCard as Course, LEVEL_LABELS } from '#features/courses/course-card.ts'
import { AccessBadge } from './access-badge.tsx'
import { Byline } from './byline.tsx'
import { CoverImage } from './courses/course-cover.tsx'
import { TagLinks } from './tag-links.tsx'

/** Backgrounds for a card without a cover, one per course (picked from its id), so cards line up. */
const PLACEHOLDER_BACKGROUNDS = [
  'from-sky-100 to-indigo-200 dark:from-sky-950 dark:to-indigo-900',
  'from-emerald-100 to-teal-200 dark:from-emerald-950 dark:to-teal-900',
  'from-amber-100 to-orange-200 dark:from-amber-950 dark:to-orange-900',
  'from-rose-100 to-fuchsia-200 dark:from-rose-950 dark:to-fuchsia-900',
] as const

function placeholderBackground(id: string): string {
  let sum = 0
  for (const character of id) sum += character.charCodeAt(0)
  return PLACEHOLDER_BACKGROUNDS[sum % PLACEHOLDER_BACKGROUNDS.length] ?? ''
}

export function CourseCard({ course }: { course: Course }) {
  return (
    <article className="flex h-full flex-col rounded-xl border border-slate-200 p-5 transition hover:border-brand-500 hover:shadow-sm dark:border-slate-800">
      {course.coverKey ? (
        <CoverImage coverKey={course.coverKey} className="mb-4" />
      ) : (
        <div
          aria-hidden="true"
          className={`mb-4 grid aspect-video w-full place-items-center rounded-lg bg-gradient-to-br text-3xl font-bold text-slate-700/60 dark:text-slate-200/60 ${placeholderBackground(course.id)}`}
        >
          {[...course.title][0]}
        </div>
      )}
      <div className="flex items-center gap-2 text-xs">
        <AccessBadge access={course.access} />
        <span className="rounded-full bg-slate-100 px-2 py-0.5 text-slate-700 dark:bg-slate-800 dark:text-slate-300">
          {LEVEL_LABELS[course.level]}
        </span>
      </div>
      <h3 className="mt-3 text-lg font-semibold leading-snug">
        <Link
          to={contentPath('course', course.author.username, course.id)}
          className="hover:underline"
          prefetch="intent"
        >
          {course.title}
        </Link>
      </h3>
      <p className="mt-2 line-clamp-3 flex-1 text-sm text-slate-600 dark:text-slate-400">
        {course.summary}
      </p>
      {course.tags.length > 0 && (
        <p className="mt-3 flex flex-wrap gap-x-2 gap-y-1 text-xs">
          <TagLinks tags={course.tags} />
        </p>
      )}
      <p className="mt-4 text-xs text-slate-500 dark:text-slate-400">
        <Byline author={course.author} publishedAt={course.publishedAt} />
      </p>
    </article>
  )
}
