import { data, Link } from 'react-router'
import { EmptyState } from '#app/components/empty-state.tsx'
import { PUBLIC_PAGE_CACHE_CONTROL } from '#app/lib/cache-control.ts'
import { contentForPage } from '#app/lib/content-response.server.ts'
import { formatDate } from '#app/lib/format.ts'
import { errorMeta, pageMeta } from '#app/lib/meta.ts'
import { CONTENT_KINDS, profilePath } from '#features/content-kinds.ts'
import { listTaggedContent } from '#features/tags/tagged-content.server.ts'
import type { Route } from './+types/tag'

/** Not found, forbidden or broken: said inside the layout, with the header still there. */
export { ContentErrorBoundary as ErrorBoundary } from '#app/components/error-page.tsx'

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  loaderData
    ? pageMeta(matches, {
        title: `#${loaderData.tag}`,
        description: `タグ「${loaderData.tag}」の付いたコンテンツの一覧です。`,
      })
    : errorMeta(matches, error)

/** Published content of every kind with the tag (normalised, so any spelling finds it). */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const tagged = await contentForPage(
    listTaggedContent(context.db, params.tag),
    new URL(request.url).pathname,
  )
  return data(tagged, { headers: { 'Cache-Control': PUBLIC_PAGE_CACHE_CONTROL } })
}

export default function TagPage({ loaderData: { tag, items } }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-2xl font-bold">#{tag}</h1>
      {items.length === 0 ? (
        <div className="mt-6">
          <EmptyState title="このタグの付いた公開コンテンツはまだありません" />
        </div>
      ) : (
        <ul className="mt-6 divide-y divide-slate-200 dark:divide-slate-800">
          {items.map((item) => (
            <li key={`${item.kind}-${item.id}`} className="flex items-center gap-3 py-4">
              <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs dark:bg-slate-800">
                {CONTENT_KINDS[item.kind].label}
              </span>
              <div className="min-w-0 flex-1">
                <Link to={item.path} className="font-semibold hover:underline">
                  {item.title}
                </Link>
                <p className="text-xs text-slate-500 dark:text-slate-400">
                  <Link to={profilePath(item.author.username)} className="hover:underline">
                    {item.author.displayName}
                  </Link>
                  <span aria-hidden="true"> ・ </span>
                  {formatDate(item.publishedAt)}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
