import type { Page } from '../../../features/pagination.ts'
import type { StudyCard as Study } from '../../../features/studies/study-lists.server.ts'
import { apiFetch } from '../../lib/api-client.ts'
import { useSettings } from '../../lib/root-data.ts'
import { InfiniteList } from '../infinite-list.tsx'
import { StudyCard } from './study-card.tsx'

export const STUDY_PAGE_SIZE = 12

/** Published studies, continued from /api as the reader scrolls (`apiPath` lists them). */
export function StudyList({ firstPage, apiPath }: { firstPage: Page<Study>; apiPath: string }) {
  const { apiGatewayUrl } = useSettings()
  return (
    <InfiniteList<Study>
      label="スタディ"
      firstPage={firstPage}
      fetchPage={(cursor) =>
        apiFetch<Page<Study>>(
          apiGatewayUrl,
          `${apiPath}?limit=${STUDY_PAGE_SIZE}&cursor=${encodeURIComponent(cursor)}`,
        )
      }
      getKey={(study) => study.id}
      renderItem={(study) => <StudyCard study={study} />}
      className="mt-6 grid gap-4 sm:grid-cols-2"
    />
  )
}
