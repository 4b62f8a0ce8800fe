import { data } from 'react-router'
import { EmptyState } from '#app/components/empty-state.tsx'
import { SearchBox } from '#app/components/search-box.tsx'
import { SearchResultList } from '#app/components/search-results.tsx'
import { viewerCacheControl } from '#app/lib/content-response.server.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { actorOf } from '#features/actor.ts'
import { searchPublishedContent } from '#features/search/search.server.ts'
import { searchQuery } from '#features/search/search-query.ts'
import type { Route } from './+types/search'

// Results depend on the viewer (premium lessons they may read), so only guests' are shared.
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches, data: loaderData }) =>
  pageMeta(matches, {
    title: loaderData?.q ? `「${loaderData.q}」の検索結果` : '検索',
    description: 'コース・スタディ・ラボ・ラボストーリーを検索できます。',
  })

export async function loader({ request, context }: Route.LoaderArgs) {
  const q = new URL(request.url).searchParams.get('q') ?? ''
  const user = await context.auth.currentUser(request)
  const headers = viewerCacheControl(user !== undefined)
  if (!q.trim()) return data({ q, results: [], error: null }, { headers })
  const query = searchQuery.safeParse({ q })
  if (!query.success) {
    const error = query.error.issues[0]?.message ?? null
    return data({ q, results: [], error }, { status: 400, headers })
  }
  const results = await searchPublishedContent(context.db, query.data, actorOf(user))
  return data({ q, results, error: null }, { headers })
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { q, results, error } = loaderData
  return (
    <div>
      <h1 className="text-2xl font-bold">{q.trim() ? `「${q}」の検索結果` : '検索'}</h1>
      <SearchBox
        key={q}
        action="/search"
        defaultValue={q}
        label="コース・スタディ・ラボを検索"
        className="mt-4 max-w-xl"
      />
      {error ? (
        <p role="alert" className="mt-6 text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : !q.trim() ? (
        <p className="mt-6 text-slate-600 dark:text-slate-400">
          調べたい言葉を入力してください。1文字からでも検索できます。
        </p>
      ) : results.length === 0 ? (
        <div className="mt-6">
          <EmptyState
            title="見つかりませんでした"
            actions={[{ to: '/courses', label: 'コース一覧を見る' }]}
          >
            別の言葉や、短い言葉で検索してみてください。
          </EmptyState>
        </div>
      ) : (
        <>
          <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">{`${results.length} 件`}</p>
          <SearchResultList results={results} />
        </>
      )}
    </div>
  )
}
