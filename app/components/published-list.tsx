import type { ReactNode } from 'react'
import { apiFetch } from '#app/lib/api-client.ts'
import { useSettings } from '#app/lib/root-data.ts'
import type { Page } from '#features/pagination.ts'
import { InfiniteList } from './infinite-list.tsx'

/** Items a list page shows first; later pages are fetched from /api at the same size. */
export const LIST_PAGE_SIZE = 12

/** Published items of one kind as cards, continued from /api as the reader scrolls. */
export function PublishedList<T extends { id: string }>(props: {
  label: string
  firstPage: Page<T>
  /** The /api list these continue, e.g. `/studies` or `/users/{name}/labs`. */
  apiPath: string
  renderItem(item: T): ReactNode
}) {
  const { apiGatewayUrl } = useSettings()
  return (
    <InfiniteList<T>
      label={props.label}
      firstPage={props.firstPage}
      fetchPage={(cursor) =>
        apiFetch<Page<T>>(
          apiGatewayUrl,
          `${props.apiPath}?limit=${LIST_PAGE_SIZE}&cursor=${encodeURIComponent(cursor)}`,
        )
      }
      getKey={(item) => item.id}
      renderItem={props.renderItem}
      className="mt-6 grid gap-4 sm:grid-cols-2"
    />
  )
}
