import { useMemo } from 'react'
import { QuestionListEditor } from '#app/components/exercises/question-list-editor.tsx'
import { studyApi } from '#app/lib/api/drafts.ts'
import { exerciseApi } from '#app/lib/api/exercises.ts'
import { contentForPage } from '#app/lib/content-response.server.ts'
import { editorRequest } from '#app/lib/editor-page.server.ts'
import { errorMeta, pageMeta } from '#app/lib/meta.ts'
import { useSettings } from '#app/lib/root-data.ts'
import { exercisesPath } from '#features/content-kinds.ts'
import { readExerciseSetForEditor } from '#features/exercises/questions.server.ts'
import type { Route } from './+types/exercises-edit'

export { ContentErrorBoundary as ErrorBoundary } from '#app/components/error-page.tsx'

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  loaderData
    ? pageMeta(matches, {
        title: `「${loaderData.set.study.title}」の演習の編集`,
        description: 'スタディの演習問題を追加・並べ替え・編集・削除します。',
      })
    : errorMeta(matches, error)

/** `/{user}/studies/{id}/exercises/edit`: the study's owner orders and publishes its questions. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { actor, path } = await editorRequest(context, request, params, 'studies')
  const set = await contentForPage(readExerciseSetForEditor(context.db, actor, params.id), path)
  return { set, exercisesPath: exercisesPath(params.user, params.id) }
}

export default function ExercisesEditPage({ loaderData }: Route.ComponentProps) {
  const { apiGatewayUrl } = useSettings()
  const api = useMemo(() => exerciseApi(apiGatewayUrl), [apiGatewayUrl])
  const studies = useMemo(() => studyApi(apiGatewayUrl), [apiGatewayUrl])
  const { set } = loaderData
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-2xl font-bold">演習の編集</h1>
      <p className="mt-1 text-slate-600 dark:text-slate-400">スタディ「{set.study.title}」</p>
      <div className="mt-6">
        <QuestionListEditor
          study={set.study}
          exercisesPath={loaderData.exercisesPath}
          questions={set.questions}
          api={api}
          studies={studies}
        />
      </div>
    </div>
  )
}
