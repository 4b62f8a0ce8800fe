import { useMemo } from 'react'
import { useLocation } from 'react-router'
import { LabStoryEditor } from '#app/components/labs/lab-story-editor.tsx'
import { labStoryApi } from '#app/lib/api/drafts.ts'
import { contentForPage } from '#app/lib/content-response.server.ts'
import { editorKey } from '#app/lib/editor-address.ts'
import { editorRequest } from '#app/lib/editor-page.server.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { useSettings } from '#app/lib/root-data.ts'
import { labChoicesFor, readLabStoryForEditor } from '#features/labs/lab-view.server.ts'
import type { Route } from './+types/story-editor'

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: loaderData?.story ? `「${loaderData.story.title}」の編集` : 'ストーリーの作成',
    description: 'ラボづくりのストーリーを Markdown と画像で書き、下書き保存や公開をします。',
  })

/** `/{user}/labs_stories/{id}/edit` edits; `/{user}/labs_stories/create[?lab=]` creates. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { username, actor, id, path } = await editorRequest(
    context,
    request,
    params,
    'labs_stories',
  )
  const story = id ? await contentForPage(readLabStoryForEditor(context.db, actor, id), path) : null
  const labs = await labChoicesFor(context.db, actor, id)
  // A story started from a lab's page names it; only the author's own labs can be chosen.
  const asked = new URL(request.url).searchParams.get('lab')
  const labId = labs.find((lab) => lab.id === asked)?.id
  return { username, story, labs, labId }
}

export default function LabStoryEditorPage({ loaderData }: Route.ComponentProps) {
  const { apiGatewayUrl } = useSettings()
  const location = useLocation()
  const api = useMemo(() => labStoryApi(apiGatewayUrl), [apiGatewayUrl])
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-2xl font-bold">
        {loaderData.story ? 'ストーリーの編集' : 'ストーリーの作成'}
      </h1>
      <div className="mt-6">
        <LabStoryEditor
          key={editorKey(location, loaderData.story?.id)}
          initial={loaderData.story}
          username={loaderData.username}
          labs={loaderData.labs}
          labId={loaderData.labId}
          api={api}
        />
      </div>
    </div>
  )
}
