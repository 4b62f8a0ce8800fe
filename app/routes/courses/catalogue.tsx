import { data } from 'react-router'
import { CourseCard } from '#app/components/course-card.tsx'
import { EmptyState } from '#app/components/empty-state.tsx'
import {
  FilterForm,
  FilterSelect,
  filterParams,
  TagFilter,
} from '#app/components/filter-select.tsx'
import { InfiniteList } from '#app/components/infinite-list.tsx'
import { SearchBox } from '#app/components/search-box.tsx'
import { SearchResultList } from '#app/components/search-results.tsx'
import { callApi } from '#app/lib/api/client.ts'
import { publicPageHeaders } from '#app/lib/cache-control.ts'
import { viewerCacheControl } from '#app/lib/content-response.server.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { useSettings } from '#app/lib/root-data.ts'
import { actorOf } from '#features/actor.ts'
import {
  type CatalogueFilters,
  catalogueFilters,
  catalogueQuery,
  listCatalogueTags,
  listPublishedCourses,
} from '#features/courses/catalogue.server.ts'
import { type CourseCard as Course, LEVEL_LABELS } from '#features/courses/course-card.ts'
import { searchPublishedContent } from '#features/search/search.server.ts'
import { searchQuery } from '#features/search/search-query.ts'
import type { Route } from './+types/catalogue'

// A search's results depend on the viewer (premium lessons they may read); the list does not.
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'コース一覧',
    description: 'HTML・CSS・JavaScript・Python など、初心者向けのプログラミングコースの一覧です。',
  })

const PAGE_SIZE = 12

const NO_FILTERS: CatalogueFilters = { tag: undefined, level: undefined, access: undefined }

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams
  const q = params.get('q') ?? ''
  const tags = await listCatalogueTags(context.db)
  if (q.trim()) {
    const user = await context.auth.currentUser(request)
    const headers = viewerCacheControl(user !== undefined)
    const search = searchQuery.safeParse({ q, kind: 'course' })
    if (!search.success) {
      const error = search.error.issues[0]?.message ?? null
      return data(
        { q, tags, filters: NO_FILTERS, firstPage: null, results: [], error },
        { status: 400, headers },
      )
    }
    const results = await searchPublishedContent(context.db, search.data, actorOf(user))
    return data(
      { q, tags, filters: NO_FILTERS, firstPage: null, results, error: null },
      { headers },
    )
  }
  const parsed = catalogueFilters.safeParse({
    tag: params.get('tag') ?? undefined,
    level: params.get('level') ?? undefined,
    access: params.get('access') ?? undefined,
  })
  if (!parsed.success) {
    const error = parsed.error.issues[0]?.message ?? null
    return data(
      { q, tags, filters: NO_FILTERS, firstPage: null, results: [], error },
      { status: 400, headers: publicPageHeaders() },
    )
  }
  const filters = parsed.data
  const firstPage = await listPublishedCourses(
    context.db,
    catalogueQuery.parse({ ...filters, limit: PAGE_SIZE }),
  )
  return data(
    { q, tags, filters, firstPage, results: [], error: null },
    { headers: publicPageHeaders() },
  )
}

/** The catalogue's filters: tag, level and access. */
function CatalogueFilterForm({ tags, filters }: { tags: string[]; filters: CatalogueFilters }) {
  return (
    <FilterForm action="/courses" label="コースを絞り込む" filters={filters}>
      <TagFilter tags={tags} value={filters.tag} />
      <FilterSelect
        label="レベル"
        name="level"
        value={filters.level}
        options={Object.entries(LEVEL_LABELS)}
      />
      <FilterSelect
        label="料金"
        name="access"
        value={filters.access}
        options={[
          ['free', '無料'],
          ['premium', 'プレミアム'],
        ]}
      />
    </FilterForm>
  )
}

export default function Catalogue({ loaderData }: Route.ComponentProps) {
  const { apiGatewayUrl } = useSettings()
  const { q, tags, filters, firstPage, results, error } = loaderData
  const filterQuery = filterParams(filters).toString()
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
      {!q.trim() && <CatalogueFilterForm tags={tags} filters={filters} />}
      {error ? (
        <p role="alert" className="mt-6 text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : firstPage ? (
        firstPage.items.length === 0 ? (
          <div className="mt-6">
            <EmptyState
              title="条件に合うコースはありません"
              actions={[{ to: '/courses', label: 'すべてのコースを見る' }]}
            >
              条件を変えてみてください。
            </EmptyState>
          </div>
        ) : (
          <>
            {/* The cards are h3s, as under the home page's h2 sections; this keeps the order (heading-order). */}
            <h2 className="sr-only">コースの一覧</h2>
            <InfiniteList<Course>
              key={filterQuery}
              label="コース"
              firstPage={firstPage}
              fetchPage={(cursor) =>
                callApi(apiGatewayUrl, 'courses.catalogue', {
                  query: { ...filters, limit: PAGE_SIZE, cursor },
                })
              }
              getKey={(course) => course.id}
              renderItem={(course) => <CourseCard course={course} />}
              className="mt-6 grid gap-4 sm:grid-cols-2"
            />
          </>
        )
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
