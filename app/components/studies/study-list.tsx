import { LIST_PAGE_SIZE, PublishedList } from '#app/components/published-list.tsx'
import type { Page } from '#features/pagination.ts'
import type { StudyCard as Study } from '#features/studies/study-lists.server.ts'
import { StudyCard } from './study-card.tsx'

export const STUDY_PAGE_SIZE = LIST_PAGE_SIZE

/** Published studies, continued from /api as the reader scrolls (`apiPath` lists them). */
export function StudyList({ firstPage, apiPath }: { firstPage: Page<Study>; apiPath: string }) {
  return (
    <PublishedList
      label="スタディ"
      firstPage={firstPage}
      apiPath={apiPath}
      renderItem={(study) => <StudyCard study={study} />}
    />
  )
}
