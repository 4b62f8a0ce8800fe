import { Check, Lock } from 'lucide-react'
import { NavLink } from 'react-router'
import { EmptyState } from '#app/components/empty-state.tsx'
import type { CourseView } from '#features/courses/course-view.server.ts'

/** Sections and their lessons, each with the learner's progress or its premium lock. */
export function CourseOutline({ course }: { course: CourseView }) {
  if (course.progress.total === 0) {
    return (
      <EmptyState
        title="このコースのレッスンは準備中です"
        actions={[{ to: '/courses', label: 'ほかのコースを見る' }]}
      >
        公開され次第、ここにセクションとレッスンが並びます。
      </EmptyState>
    )
  }
  const coursePath = `/${course.author.username}/courses/${course.id}`
  return (
    <ol className="flex flex-col gap-6">
      {course.sections.map((section, sectionIndex) => (
        <li key={section.id}>
          <h3 className="text-sm font-semibold text-slate-600 dark:text-slate-400">
            {sectionIndex + 1}. {section.title}
          </h3>
          <ol className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
            {section.lessons.map((lesson) => (
              <li key={lesson.id}>
                <NavLink
                  to={`${coursePath}/lessons/${lesson.id}`}
                  className={({ isActive }) =>
                    `flex items-center gap-3 px-4 py-3 hover:bg-slate-50 dark:hover:bg-slate-900 ${isActive ? 'bg-slate-100 font-semibold dark:bg-slate-800' : ''}`
                  }
                >
                  <span
                    aria-hidden="true"
                    className={`flex size-5 shrink-0 items-center justify-center rounded-full border text-xs ${lesson.done ? 'border-emerald-600 bg-emerald-600 text-white' : 'border-slate-300 dark:border-slate-600'}`}
                  >
                    {lesson.done && <Check className="size-3.5" strokeWidth={3} />}
                  </span>
                  <span className="min-w-0 flex-1">{lesson.title}</span>
                  {lesson.done && <span className="sr-only">（完了）</span>}
                  {lesson.locked && (
                    <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900 dark:bg-amber-900 dark:text-amber-100">
                      <Lock aria-hidden="true" className="size-3" />
                      プレミアム
                    </span>
                  )}
                </NavLink>
              </li>
            ))}
          </ol>
        </li>
      ))}
    </ol>
  )
}
