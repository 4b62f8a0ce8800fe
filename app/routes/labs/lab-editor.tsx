import { useMemo } from 'react'
import { useLocation } from 'react-router'
import { LabEditor } from '#app/components/labs/lab-editor.tsx'
import { labApi } from '#app/lib/api/drafts.ts'
import { contentForPage } from '#app/lib/content-response.server.ts'
import { editorKey } from '#app/lib/editor-address.ts'
import { editorRequest } from '#app/lib/editor-page.server.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { useSettings } from '#app/lib/root-data.ts'
import { readLabForEditor } from '#features/labs/lab-view.server.ts'
import type { Route } from './+types/lab-editor'

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: loaderData?.lab ? `「${loaderData.lab.title}」の編集` : 'ラボの作成',
    description: '作品のスクリーンショット、リンク、説明を書き、下書き保存や公開をします。',
  })

/** `/{user}/labs/{id}/edit` edits; `/{user}/labs/create` creates. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { username, actor, id, path } = await editorRequest(context, request, params, 'labs')
  const lab = id ? await contentForPage(readLabForEditor(context.db, actor, id), path) : null
  return { username, lab }
}

export default function LabEditorPage({ loaderData }: Route.ComponentProps) {
  const { apiGatewayUrl } = useSettings()
  const location = useLocation()
  const api = useMemo(() => labApi(apiGatewayUrl), [apiGatewayUrl])
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-2xl font-bold">{loaderData.lab ? 'ラボの編集' : 'ラボの作成'}</h1>
      <div className="mt-6">
        <LabEditor
          key={editorKey(location, loaderData.lab?.id)}
          initial={loaderData.lab}
          username={loaderData.username}
          api={api}
        />
      </div>
    </div>
  )
}
