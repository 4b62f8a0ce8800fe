import { data } from 'react-router'
import { HeadingWithCreate } from '#app/components/create-button.tsx'
import { STUDY_PAGE_SIZE, StudyList } from '#app/components/studies/study-list.tsx'
import { pagesOf } from '#app/lib/api/lists.ts'
import { publicPageHeaders } from '#app/lib/cache-control.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { listPublishedStudies, studyListQuery } from '#features/studies/study-lists.server.ts'
import type { Route } from './+types/list'

export const headers = publicPageHeaders

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'スタディ',
    description: 'テーマごとの学習ノートと演習のまとまりの一覧です。',
  })

export async function loader({ context }: Route.LoaderArgs) {
  const query = studyListQuery.parse({ limit: STUDY_PAGE_SIZE })
  return data({ firstPage: await listPublishedStudies(context.db, query) })
}

export default function Studies({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <HeadingWithCreate kind="studies">
        <h1 className="text-2xl font-bold">スタディ</h1>
      </HeadingWithCreate>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        テーマごとにまとめた学習ノートです。新しく公開された順に並んでいます。
      </p>
      {/* The cards are h3s, as under the home page's h2 sections; this keeps the order (heading-order). */}
      <h2 className="sr-only">スタディの一覧</h2>
      <StudyList firstPage={loaderData.firstPage} pages={pagesOf('studies.list')} />
    </div>
  )
}
