import { Link } from 'react-router'
import { findPublishedCourse } from '../../../features/courses/catalogue.server.ts'
import { LEVEL_LABELS } from '../../../features/courses/course-card.ts'
import { AccessBadge } from '../../components/course-card.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { publicPageHeaders } from '../../lib/cache-control.ts'
import { formatDate } from '../../lib/format.ts'
import { pageMeta } from '../../lib/meta.ts'
import type { Route } from './+types/course'

export const headers = publicPageHeaders

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: loaderData?.course.title,
    description: loaderData?.course.summary ?? '',
  })

export async function loader({ context, params }: Route.LoaderArgs) {
  const course = await findPublishedCourse(context.db, {
    username: params.user,
    courseId: params.id,
  })
  if (!course) throw new Response('Not Found', { status: 404 })
  return { course }
}

export default function CoursePage({ loaderData: { course } }: Route.ComponentProps) {
  return (
    <article className="mx-auto max-w-3xl">
      <nav aria-label="パンくずリスト" className="text-sm text-slate-500 dark:text-slate-400">
        <Link to="/courses" className="hover:underline">
          コース一覧
        </Link>
        <span aria-hidden="true"> / </span>
        <span>{course.title}</span>
      </nav>
      <header className="mt-4">
        <div className="flex items-center gap-2 text-xs">
          <AccessBadge access={course.access} />
          <span className="rounded-full bg-slate-100 px-2 py-0.5 dark:bg-slate-800">
            {LEVEL_LABELS[course.level]}
          </span>
        </div>
        <h1 className="mt-3 text-3xl font-bold leading-tight">{course.title}</h1>
        <p className="mt-4 text-slate-700 dark:text-slate-300">{course.summary}</p>
        <p className="mt-4 text-sm text-slate-500 dark:text-slate-400">
          <Link to={`/${course.author.username}`} className="hover:underline">
            {course.author.displayName}
          </Link>
          <span aria-hidden="true"> ・ </span>
          <time dateTime={new Date(course.publishedAt).toISOString()}>
            {formatDate(course.publishedAt)} 公開
          </time>
        </p>
      </header>
      <section aria-labelledby="lessons-heading" className="mt-10">
        <h2 id="lessons-heading" className="text-xl font-bold">
          レッスン
        </h2>
        <div className="mt-4">
          <EmptyState
            title="このコースのレッスンは準備中です"
            actions={[{ to: '/courses', label: 'ほかのコースを見る' }]}
          >
            公開され次第、ここにセクションとレッスンが並びます。
          </EmptyState>
        </div>
      </section>
    </article>
  )
}
