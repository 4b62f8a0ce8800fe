import { data, Link } from 'react-router'
import { QuestionList } from '#app/components/exercises/question-list.tsx'
import { SolvedCount } from '#app/components/exercises/solved-count.tsx'
import { exerciseApi } from '#app/lib/api/exercises.ts'
import { contentForPage, viewerCacheControl } from '#app/lib/content-response.server.ts'
import { errorMeta, pageMeta } from '#app/lib/meta.ts'
import { useSettings } from '#app/lib/root-data.ts'
import { actorOf } from '#features/actor.ts'
import { contentPath } from '#features/content-kinds.ts'
import { readExerciseSet } from '#features/exercises/exercise-set.server.ts'
import type { Route } from './+types/study-exercises'

/** Not found, forbidden or broken: said inside the layout, with the header still there. */
export { ContentErrorBoundary as ErrorBoundary } from '#app/components/error-page.tsx'

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  loaderData
    ? pageMeta(matches, {
        title: `「${loaderData.set.study.title}」の演習`,
        description: `${loaderData.set.study.author.displayName} さんのスタディの演習問題です。`,
      })
    : errorMeta(matches, error)

/**
 * A study's questions to answer, with the viewer's status per question. Guests read the free
 * questions and are asked to sign in to answer; premium ones arrive locked, without a body.
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const user = await context.auth.currentUser(request)
  const set = await contentForPage(
    readExerciseSet(
      context.db,
      context.markdown,
      { username: params.user, studyId: params.id },
      actorOf(user),
    ),
    new URL(request.url).pathname,
  )
  return data(
    { set, signedIn: user !== undefined },
    { headers: viewerCacheControl(user !== undefined) },
  )
}

export default function StudyExercises({ loaderData: { set, signedIn } }: Route.ComponentProps) {
  const { apiGatewayUrl } = useSettings()
  const api = exerciseApi(apiGatewayUrl)
  const { study } = set
  const studyPath = contentPath('study', study.author.username, study.id)
  return (
    <div className="mx-auto max-w-3xl">
      <nav aria-label="パンくずリスト" className="text-sm text-slate-500 dark:text-slate-400">
        <Link to="/exercises" className="hover:underline">
          演習
        </Link>
        <span aria-hidden="true"> / </span>
        <Link to={studyPath} className="hover:underline">
          {study.title}
        </Link>
      </nav>
      <h1 className="mt-4 text-3xl font-bold leading-tight">「{study.title}」の演習</h1>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        {study.status === 'draft' && (
          <span className="rounded-full bg-slate-800 px-2 py-0.5 text-xs font-semibold text-white dark:bg-slate-200 dark:text-slate-900">
            下書き
          </span>
        )}
        {set.total > 0 && <SolvedCount solved={set.solved} total={set.total} />}
        {study.canEdit && (
          <Link
            to={`${set.study.path}/edit`}
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            演習を編集する
          </Link>
        )}
      </div>
      {!signedIn && set.total > 0 && (
        <p className="mt-4 rounded-lg bg-brand-50 p-4 text-sm dark:bg-slate-900">
          答えを送って採点するには
          <Link
            to={`/auth/signin?redirectTo=${encodeURIComponent(set.study.path)}`}
            className="mx-1 font-semibold text-brand-700 underline dark:text-brand-100"
          >
            ログイン
          </Link>
          してください。アカウントがなくても
          <Link
            to="/example"
            className="mx-1 font-semibold text-brand-700 underline dark:text-brand-100"
          >
            お試しの演習
          </Link>
          に挑戦できます。
        </p>
      )}
      {set.total === 0 ? (
        <p className="mt-8 rounded-xl border border-dashed border-slate-300 px-6 py-12 text-center dark:border-slate-700">
          このスタディの演習はまだありません。
        </p>
      ) : (
        <QuestionList questions={set.questions} answer={api.answer} className="mt-8" />
      )}
    </div>
  )
}
