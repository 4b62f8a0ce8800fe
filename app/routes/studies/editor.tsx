import { useMemo } from 'react'
import { useLocation } from 'react-router'
import { StudyEditor } from '#app/components/studies/study-editor.tsx'
import { studyApi } from '#app/lib/api/drafts.ts'
import { contentForPage } from '#app/lib/content-response.server.ts'
import { editorKey } from '#app/lib/editor-address.ts'
import { editorRequest } from '#app/lib/editor-page.server.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { useSettings } from '#app/lib/root-data.ts'
import { readStudyForEditor } from '#features/studies/study-view.server.ts'
import type { Route } from './+types/editor'

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: loaderData?.study ? `「${loaderData.study.title}」の編集` : 'スタディの作成',
    description: 'スタディのノートを Markdown で書き、下書き保存や公開をします。',
  })

/** `/{user}/studies/{id}/edit` edits; `/{user}/studies/create` creates. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { username, actor, id, path } = await editorRequest(context, request, params, 'studies')
  const study = id ? await contentForPage(readStudyForEditor(context.db, actor, id), path) : null
  return { username, study }
}

export default function StudyEditorPage({ loaderData }: Route.ComponentProps) {
  const { apiGatewayUrl } = useSettings()
  const location = useLocation()
  const api = useMemo(() => studyApi(apiGatewayUrl), [apiGatewayUrl])
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-2xl font-bold">
        {loaderData.study ? 'スタディの編集' : 'スタディの作成'}
      </h1>
      <div className="mt-6">
        <StudyEditor
          key={editorKey(location, loaderData.study?.id)}
          initial={loaderData.study}
          username={loaderData.username}
          api={api}
        />
      </div>
    </div>
  )
}
