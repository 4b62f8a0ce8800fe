import { data } from 'react-router'
import { actorOf } from '../../../features/actor.ts'
import { catalogueQuery, listPublishedCourses } from '../../../features/courses/catalogue.server.ts'
import type { CourseCard as Course } from '../../../features/courses/course-card.ts'
import type { Page } from '../../../features/pagination.ts'
import { searchPublishedContent } from '../../../features/search/search.server.ts'
import { searchQuery } from '../../../features/search/search-query.ts'
import { CourseCard } from '../../components/course-card.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { InfiniteList } from '../../components/infinite-list.tsx'
import { SearchBox, SearchResultList } from '../../components/search-results.tsx'
import { apiFetch } from '../../lib/api-client.ts'
import { publicPageHeaders } from '../../lib/cache-control.ts'
import { viewerCacheControl } from '../../lib/content-response.server.ts'
import { pageMeta } from '../../lib/meta.ts'
import { useSettings } from '../../lib/root-data.ts'
import type { Route } from './+types/catalogue'

// A search's results depend on the viewer (premium lessons they may read); the list does not.
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'コース一覧',
    description: 'HTML・CSS・JavaScript・Python など、初心者向けのプログラミングコースの一覧です。',
  })

const PAGE_SIZE = 12

export async function loader({ request, context }: Route.LoaderArgs) {
  const q = new URL(request.url).searchParams.get('q') ?? ''
  if (q.trim()) {
    const user = await context.auth.currentUser(request)
    const headers = viewerCacheControl(user !== undefined)
    const search = searchQuery.safeParse({ q, kind: 'course' })
    if (!search.success) {
      const error = search.error.issues[0]?.message ?? null
      return data({ q, firstPage: null, results: [], error }, { status: 400, headers })
    }
    const results = await searchPublishedContent(context.db, search.data, actorOf(user))
    return data({ q, firstPage: null, results, error: null }, { headers })
  }
  const firstPage = await listPublishedCourses(
    context.db,
    catalogueQuery.parse({ limit: PAGE_SIZE }),
  )
  return data({ q, firstPage, results: [], error: null }, { headers: publicPageHeaders() })
}

export default function Catalogue({ loaderData }: Route.ComponentProps) {
  const { apiGatewayUrl } = useSettings()
  const { q, firstPage, results, error } = loaderData
  return (
    <div>
      <h1 className="text-2xl font-bold">コース一覧</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        気になるコースから始めましょう。「無料」のコースは無料プランですべて学べます。
      </p>
      <SearchBox
        key={q}
        action="/courses"
        defaultValue={q}
        label="コースを検索"
        className="mt-4 max-w-xl"
      />
      {error ? (
        <p role="alert" className="mt-6 text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : firstPage ? (
        <InfiniteList<Course>
          label="コース"
          firstPage={firstPage}
          fetchPage={(cursor) =>
            apiFetch<Page<Course>>(
              apiGatewayUrl,
              `/courses?limit=${PAGE_SIZE}&cursor=${encodeURIComponent(cursor)}`,
            )
          }
          getKey={(course) => course.id}
          renderItem={(course) => <CourseCard course={course} />}
          className="mt-6 grid gap-4 sm:grid-cols-2"
        />
      ) : results.length > 0 ? (
        <SearchResultList results={results} />
      ) : (
        <div className="mt-6">
          <EmptyState
            title={`「${q}」に一致するコースはありません`}
            actions={[{ to: '/courses', label: 'すべてのコースを見る' }]}
          >
            別の言葉で検索してみてください。
          </EmptyState>
        </div>
      )}
    </div>
  )
}
