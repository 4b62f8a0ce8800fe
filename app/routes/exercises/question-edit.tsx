import { useMemo } from 'react'
import { data, useLocation } from 'react-router'
import { QuestionEditor } from '#app/components/exercises/question-editor.tsx'
import { exerciseApi } from '#app/lib/api/exercises.ts'
import { contentForPage } from '#app/lib/content-response.server.ts'
import { editorKey } from '#app/lib/editor-address.ts'
import { editorRequest } from '#app/lib/editor-page.server.ts'
import { errorMeta, pageMeta } from '#app/lib/meta.ts'
import { useSettings } from '#app/lib/root-data.ts'
import { exercisesPath } from '#features/content-kinds.ts'
import {
  readExerciseSetForEditor,
  readQuestionForEditor,
} from '#features/exercises/questions.server.ts'
import type { Route } from './+types/question-edit'

export { ContentErrorBoundary as ErrorBoundary } from '#app/components/error-page.tsx'

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  loaderData
    ? pageMeta(matches, {
        title: loaderData.question ? '問題の編集' : '問題の作成',
        description: '演習の問題文、答え、解説を書きます。書いた内容は自動で保存されます。',
      })
    : errorMeta(matches, error)

/**
 * `/{user}/studies/{id}/exercises/create` writes a new question of the study;
 * `…/exercises/{questionId}/edit` edits one. Only the study's owner (the features check it).
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { actor, path } = await editorRequest(context, request, params, 'studies')
  const set = await contentForPage(readExerciseSetForEditor(context.db, actor, params.id), path)
  let question = null
  if (params.questionId) {
    question = await contentForPage(
      readQuestionForEditor(context.db, actor, params.questionId),
      path,
    )
    // A question of another study under this study's address does not exist here.
    if (question.studyId !== set.study.id) {
      throw data('問題が見つかりません', { status: 404, statusText: '問題が見つかりません' })
    }
  }
  return {
    study: set.study,
    question,
    number: question
      ? set.questions.findIndex((item) => item.id === question.id) + 1
      : set.questions.length + 1,
    exercisesPath: exercisesPath(params.user, params.id),
  }
}

export default function QuestionEditPage({ loaderData }: Route.ComponentProps) {
  const { apiGatewayUrl } = useSettings()
  const location = useLocation()
  const api = useMemo(() => exerciseApi(apiGatewayUrl), [apiGatewayUrl])
  const { study, question } = loaderData
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-2xl font-bold">
        {question ? `問題 ${loaderData.number} の編集` : '問題の作成'}
      </h1>
      <p className="mt-1 text-slate-600 dark:text-slate-400">スタディ「{study.title}」</p>
      <div className="mt-6">
        <QuestionEditor
          key={editorKey(location, question?.id)}
          studyId={study.id}
          exercisesPath={loaderData.exercisesPath}
          question={question}
          api={api}
        />
      </div>
    </div>
  )
}
