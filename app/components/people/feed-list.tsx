import { Link } from 'react-router'
import { Byline } from '#app/components/byline.tsx'
import { EmptyState } from '#app/components/empty-state.tsx'
import { InfiniteList } from '#app/components/infinite-list.tsx'
import { callApi } from '#app/lib/api/client.ts'
import { useSettings } from '#app/lib/root-data.ts'
import { CONTENT_KINDS } from '#features/content-kinds.ts'
import type { PublishedItem } from '#features/follows/follow-views.ts'
import type { Page } from '#features/pagination.ts'

export const FEED_PAGE_SIZE = 10

/** The signed-in home page's feed: what the people I follow published, newest first. */
export function FeedList({ firstPage }: { firstPage: Page<PublishedItem> }) {
  const { apiGatewayUrl } = useSettings()
  return (
    <div>
      <h2 id="feed-heading" className="text-2xl font-bold">
        フォロー中の新着
      </h2>
      {firstPage.items.length === 0 ? (
        <div className="mt-6">
          <EmptyState title="フォロー中の人の新着はまだありません">
            気になる人のプロフィールでフォローすると、その人が公開したコースやスタディがここに並びます。
          </EmptyState>
        </div>
      ) : (
        <InfiniteList<PublishedItem>
          label="フォロー中の新着"
          firstPage={firstPage}
          fetchPage={(cursor) =>
            callApi(apiGatewayUrl, 'people.feed', {
              query: { limit: FEED_PAGE_SIZE, cursor },
            })
          }
          getKey={(item) => `${item.kind}/${item.id}`}
          renderItem={(item) => (
            <div className="py-3">
              <span className="mr-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold dark:bg-slate-800">
                {CONTENT_KINDS[item.kind].label}
              </span>
              <Link to={item.path} className="font-semibold hover:underline">
                {item.title}
              </Link>
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                <Byline author={item.author} publishedAt={item.publishedAt} />
              </p>
            </div>
          )}
          className="mt-4 divide-y divide-slate-200 dark:divide-slate-800"
        />
      )}
    </div>
  )
}
