import type { ReactNode } from 'react'
import type { PageFetcher } from '#app/lib/api/lists.ts'
import { useSettings } from '#app/lib/root-data.ts'
import type { Page } from '#features/pagination.ts'
import { InfiniteList } from './infinite-list.tsx'

/** Items a list page shows first; later pages are fetched from /api at the same size. */
export const LIST_PAGE_SIZE = 12

/** Published items of one kind as cards, continued from /api as the reader scrolls. */
export function PublishedList<T extends { id: string }>(props: {
  label: string
  firstPage: Page<T>
  /** The /api list these continue (`pagesOf(studyRoutes.list)`). */
  pages: PageFetcher<Page<T>>
  renderItem(item: T): ReactNode
}) {
  const { apiGatewayUrl } = useSettings()
  return (
    <InfiniteList<T>
      label={props.label}
      firstPage={props.firstPage}
      fetchPage={(cursor) => props.pages(apiGatewayUrl, cursor, LIST_PAGE_SIZE)}
      getKey={(item) => item.id}
      renderItem={props.renderItem}
      className="mt-6 grid gap-4 sm:grid-cols-2"
    />
  )
}
