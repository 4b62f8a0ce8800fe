import { Check, Lock } from 'lucide-react'
import { data, Form, Link, useLocation, useNavigation } from 'react-router'
import { ShareButtons } from '#app/components/share-buttons.tsx'
import { contentForPage, viewerCacheControl } from '#app/lib/content-response.server.ts'
import { errorMeta, shareableMeta } from '#app/lib/meta.ts'
import { query } from '#app/lib/query-string.ts'
import { actorOf } from '#features/actor.ts'
import { contentPath, lessonPath } from '#features/content-kinds.ts'
import { markLessonDone, unmarkLessonDone } from '#features/courses/lesson-progress.server.ts'
import { readLessonForViewer } from '#features/courses/lesson-view.server.ts'
import { renderedHtmlOf } from '#features/markdown/stored-html.server.ts'
import type { Route } from './+types/lesson'

/** Not found, forbidden or broken: said inside the layout, with the header still there. */
export { ContentErrorBoundary as ErrorBoundary } from '#app/components/error-page.tsx'

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  loaderData
    ? shareableMeta(matches, {
        title: `${loaderData.lesson.title} - ${loaderData.course.title}`,
        description: loaderData.course.summary,
        path: lessonPath(loaderData.course.author, loaderData.course.id, loaderData.lesson.id),
        imageKey: loaderData.course.coverKey,
      })
    : errorMeta(matches, error)

function addressOf(params: Route.LoaderArgs['params']) {
  return { username: params.user, courseId: params.id, lessonId: params.lessonId }
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const user = await context.auth.currentUser(request)
  const view = await contentForPage(
    readLessonForViewer(context.db, addressOf(params), actorOf(user)),
    new URL(request.url).pathname,
  )
  return data(
    {
      course: {
        title: view.course.title,
        summary: view.course.summary,
        path: contentPath('course', view.course.author.username, view.course.id),
        id: view.course.id,
        author: view.course.author.username,
        coverKey: view.course.coverKey,
        published: view.course.status === 'published',
      },
      lesson: {
        id: view.lesson.id,
        title: view.lesson.title,
        sectionTitle: view.lesson.sectionTitle,
        locked: view.lesson.locked,
        done: view.lesson.done,
        // Rendered (and sanitised) once per version, off the request thread, and stored.
        html:
          view.lesson.body === null
            ? null
            : await renderedHtmlOf(context.db, context.markdown, {
                kind: 'lesson',
                id: view.lesson.id,
                source: view.lesson.body,
              }),
      },
      previous: view.previous,
      next: view.next,
      signedIn: user !== undefined,
    },
    { headers: viewerCacheControl(user !== undefined) },
  )
}

/**
 * "Mark as done" records progress and a history event (again is harmless); `intent=undo` takes
 * both back, for a click by mistake.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const user = await context.auth.currentUser(request)
  // A form without fields (or none at all) marks done, as the page's button did before undo.
  const form = await request.formData().catch(() => new FormData())
  const undo = form.get('intent') === 'undo'
  const change: Promise<unknown> = (undo ? unmarkLessonDone : markLessonDone)(
    context.db,
    addressOf(params),
    actorOf(user),
  )
  await contentForPage(change, new URL(request.url).pathname)
  return { done: !undo }
}

export default function LessonPage({ loaderData }: Route.ComponentProps) {
  const { course, lesson, previous, next, signedIn } = loaderData
  const navigation = useNavigation()
  const marking = navigation.state !== 'idle' && navigation.formMethod === 'POST'
  const location = useLocation()
  return (
    <article>
      <p className="text-sm text-slate-500 dark:text-slate-400">{lesson.sectionTitle}</p>
      <h1 className="mt-1 text-3xl font-bold leading-tight">{lesson.title}</h1>
      {lesson.html === null ? (
        <div className="mt-8 rounded-xl border border-amber-300 bg-amber-50 p-6 dark:border-amber-700 dark:bg-amber-950">
          <p className="flex items-center gap-2 font-semibold">
            <Lock aria-hidden="true" className="size-5 shrink-0" />
            このレッスンはプレミアムプランで受講できます
          </p>
          <p className="mt-2 text-sm">
            プレミアムプランに登録すると、すべてのプレミアムコースとレッスンを学習できます。
          </p>
          <Link
            // Back here once subscribed: the lesson opens at once.
            to={`/plans${query({ next: location.pathname })}`}
            className="mt-4 inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
          >
            プランを見る
          </Link>
        </div>
      ) : (
        <div
          className="markdown-body mt-8"
          // Sanitised by the one Markdown renderer (features/markdown/render.ts).
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised HTML
          dangerouslySetInnerHTML={{ __html: lesson.html }}
        />
      )}
      <div className="mt-10 flex flex-wrap items-center gap-3 border-t border-slate-200 pt-6 dark:border-slate-800">
        {lesson.done && (
          <p
            className="flex items-center gap-1.5 font-semibold text-emerald-700 dark:text-emerald-400"
            role="status"
          >
            <Check aria-hidden="true" className="size-5" />
            完了しました
          </p>
        )}
        {signedIn && (lesson.done || !lesson.locked) && (
          <Form method="post">
            <button
              type="submit"
              name="intent"
              value={lesson.done ? 'undo' : 'done'}
              disabled={marking}
              className={`rounded-md disabled:opacity-60 ${
                lesson.done
                  ? 'border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800'
                  : 'bg-emerald-600 px-4 py-2 font-semibold text-white hover:bg-emerald-700'
              }`}
            >
              {marking ? '記録しています…' : lesson.done ? '完了を取り消す' : '完了にする'}
            </button>
          </Form>
        )}
        {!signedIn && (
          <Link
            to={`/auth/signin${query({ redirectTo: lessonPath(course.author, course.id, lesson.id) })}`}
            className="text-sm text-brand-700 underline dark:text-brand-100"
          >
            ログインすると進捗を記録できます
          </Link>
        )}
      </div>
      {course.published && (
        <div className="mt-6">
          <ShareButtons
            path={lessonPath(course.author, course.id, lesson.id)}
            title={`${lesson.title} - ${course.title}`}
          />
        </div>
      )}
      <nav aria-label="前後のレッスン" className="mt-6 flex flex-wrap justify-between gap-3">
        {previous ? (
          <Link to={lessonPath(course.author, course.id, previous.id)} className="hover:underline">
            ← 前へ: {previous.title}
          </Link>
        ) : (
          <span />
        )}
        {next ? (
          <Link to={lessonPath(course.author, course.id, next.id)} className="hover:underline">
            次へ: {next.title} →
          </Link>
        ) : (
          <Link to={course.path} className="hover:underline">
            コースのトップへ
          </Link>
        )}
      </nav>
    </article>
  )
}
