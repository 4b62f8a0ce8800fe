import type { CourseCard } from '#features/courses/course-card.ts'

/** 無料 or プレミアム, on cards and the course page (a module of its own: the page has no cards). */
export function AccessBadge({ access }: { access: CourseCard['access'] }) {
  return access === 'premium' ? (
    <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-100">
      プレミアム
    </span>
  ) : (
    <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100">
      無料
    </span>
  )
}
