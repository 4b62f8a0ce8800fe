import { lazy, Suspense } from 'react'
import { data, Link, Outlet, useOutlet } from 'react-router'
import { AccessBadge } from '#app/components/access-badge.tsx'
import { CoverImage } from '#app/components/courses/course-cover.tsx'
import { CourseOutline } from '#app/components/courses/course-outline.tsx'
import { HiddenNotice, ReportButton } from '#app/components/moderation/moderation-marks.tsx'
import { ShareButtons } from '#app/components/share-buttons.tsx'
import { COMMENT_PAGE_SIZE } from '#app/components/social/comment-section.tsx'
import { TagLinks } from '#app/components/tag-links.tsx'
import { contentForPage, viewerCacheControl } from '#app/lib/content-response.server.ts'
import { formatDate } from '#app/lib/format.ts'
import { errorMeta, shareableMeta } from '#app/lib/meta.ts'
import { actorOf } from '#features/actor.ts'
import { contentPath, editPath, lessonPath, profilePath } from '#features/content-kinds.ts'
import { LEVEL_LABELS } from '#features/courses/course-card.ts'
import { readCourseForViewer } from '#features/courses/course-view.server.ts'
import { socialView } from '#features/social/social-view.server.ts'
import type { Route } from './+types/course'

// The likes and comments show on the course page, not under a lesson (this route's outlet):
// a lesson's first load does not download them.
const SocialSection = lazy(() =>
  import('#app/components/social/social-section.tsx').then((module) => ({
    default: module.SocialSection,
  })),
)

/** Not found, forbidden or broken: said inside the layout, with the header still there. */
export { ContentErrorBoundary as ErrorBoundary } from '#app/components/error-page.tsx'

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  loaderData
    ? shareableMeta(matches, {
        title: loaderData.course.title,
        description: loaderData.course.summary,
        path: contentPath('course', loaderData.course.author.username, loaderData.course.id),
        imageKey: loaderData.course.coverKey,
      })
    : errorMeta(matches, error)

/** The course, as the signed-in learner (with their progress) or a guest sees it. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const user = await context.auth.currentUser(request)
  const viewer = actorOf(user)
  const course = await contentForPage(
    readCourseForViewer(context.db, { username: params.user, courseId: params.id }, viewer),
    new URL(request.url).pathname,
  )
  const social = await socialView(
    context.db,
    context.markdown,
    viewer,
    { kind: 'course', id: course.id },
    COMMENT_PAGE_SIZE,
  )
  return data(
    { course, social, signedIn: user !== undefined },
    { headers: viewerCacheControl(user !== undefined) },
  )
}

/** The course page; a lesson (the nested route) renders beside the course's outline. */
export default function CoursePage({
  loaderData: { course, social, signedIn },
}: Route.ComponentProps) {
  const lesson = useOutlet()
  const coursePath = contentPath('course', course.author.username, course.id)
  if (lesson) {
    return (
      <div className="mx-auto grid max-w-6xl gap-8 lg:grid-cols-[18rem_minmax(0,1fr)]">
        <aside className="order-2 lg:order-1">
          <p className="font-semibold">
            <Link to={coursePath} className="hover:underline">
              {course.title}
            </Link>
          </p>
          <div className="mt-4">
            <CourseOutline course={course} />
          </div>
        </aside>
        <div className="order-1 min-w-0 lg:order-2">
          <Outlet />
        </div>
      </div>
    )
  }
  const { done, total } = course.progress
  const started = done > 0
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
        <CoverImage coverKey={course.coverKey} className="mb-6" />
        <div className="flex flex-wrap items-center gap-2 text-xs">
          {course.status === 'draft' && (
            <span className="rounded-full bg-slate-800 px-2 py-0.5 font-semibold text-white dark:bg-slate-200 dark:text-slate-900">
              下書き
            </span>
          )}
          <AccessBadge access={course.access} />
          <span className="rounded-full bg-slate-100 px-2 py-0.5 dark:bg-slate-800">
            {LEVEL_LABELS[course.level]}
          </span>
          <TagLinks tags={course.tags} />
        </div>
        <HiddenNotice hidden={course.hidden} what="コース" />
        <h1 className="mt-3 text-3xl font-bold leading-tight">{course.title}</h1>
        <p className="mt-4 whitespace-pre-line text-slate-700 dark:text-slate-300">
          {course.summary}
        </p>
        <p className="mt-4 text-sm text-slate-500 dark:text-slate-400">
          <Link to={profilePath(course.author.username)} className="hover:underline">
            {course.author.displayName}
          </Link>
          {course.publishedAt !== null && (
            <>
              <span aria-hidden="true"> ・ </span>
              <time dateTime={new Date(course.publishedAt).toISOString()}>
                {formatDate(course.publishedAt)} 公開
              </time>
            </>
          )}
        </p>
        <div className="mt-6 flex flex-wrap items-center gap-3">
          {course.nextLessonId && (
            <Link
              to={lessonPath(course.author.username, course.id, course.nextLessonId)}
              className="rounded-md bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700"
            >
              {started ? '続きから学習する' : '学習を始める'}
            </Link>
          )}
          {course.canEdit && (
            <Link
              to={editPath('course', course.author.username, course.id)}
              className="rounded-md border border-slate-300 px-4 py-2.5 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
            >
              編集する
            </Link>
          )}
        </div>
        {course.status === 'published' && (
          <div className="mt-6">
            <ShareButtons path={coursePath} title={course.title} />
            <ReportButton kind="course" id={course.id} ownerUsername={course.author.username} />
          </div>
        )}
        {signedIn && total > 0 && (
          <div className="mt-6">
            <p className="text-sm" id="course-progress-label">
              進捗 {done} / {total} レッスン
            </p>
            <progress
              aria-labelledby="course-progress-label"
              className="mt-1 h-2 w-full accent-brand-600"
              max={total}
              value={done}
            />
          </div>
        )}
      </header>
      <section aria-labelledby="lessons-heading" className="mt-10">
        <h2 id="lessons-heading" className="text-xl font-bold">
          レッスン
        </h2>
        <div className="mt-4">
          <CourseOutline course={course} />
        </div>
      </section>
      <Suspense>
        <SocialSection
          kind="course"
          id={course.id}
          social={social}
          signedIn={signedIn}
          published={course.status === 'published'}
        />
      </Suspense>
    </article>
  )
}
