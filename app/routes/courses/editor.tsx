import { useMemo } from 'react'
import { redirect, useLocation } from 'react-router'
import { CourseEditor } from '#app/components/courses/course-editor.tsx'
import { courseApi } from '#app/lib/api/courses.ts'
import { contentForPage } from '#app/lib/content-response.server.ts'
import { editorKey } from '#app/lib/editor-address.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { query } from '#app/lib/query-string.ts'
import { useSettings } from '#app/lib/root-data.ts'
import { actorOf } from '#features/actor.ts'
import { createPathOf } from '#features/content-kinds.ts'
import { readCourseForEditor } from '#features/courses/course-editor.server.ts'
import type { Route } from './+types/editor'

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: loaderData?.course ? `「${loaderData.course.title}」の編集` : 'コースの作成',
    description: 'コースの基本情報、セクションとレッスンを編集し、下書き保存や公開をします。',
  })

/** `/{user}/courses/{id}/edit` edits; without an id (or at `/create`) it creates. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname
  const user = await context.auth.currentUser(request)
  if (!user) throw redirect(`/auth/signin${query({ redirectTo: path })}`)
  const courseId = 'id' in params ? params.id : undefined
  if (!courseId) {
    // New courses are always the signed-in user's own.
    if (params.user !== user.username) throw redirect(createPathOf('course', user.username))
    return { username: user.username, course: null }
  }
  const course = await contentForPage(
    readCourseForEditor(context.db, actorOf(user), courseId),
    path,
  )
  return { username: params.user, course }
}

export default function CourseEditorPage({ loaderData }: Route.ComponentProps) {
  const { apiGatewayUrl } = useSettings()
  const location = useLocation()
  const api = useMemo(() => courseApi(apiGatewayUrl), [apiGatewayUrl])
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-2xl font-bold">{loaderData.course ? 'コースの編集' : 'コースの作成'}</h1>
      <div className="mt-6">
        <CourseEditor
          key={editorKey(location, loaderData.course?.id)}
          initial={loaderData.course}
          username={loaderData.username}
          api={api}
        />
      </div>
    </div>
  )
}
