import { LIST_PAGE_SIZE, PublishedList } from '#app/components/published-list.tsx'
import type { PageFetcher } from '#app/lib/api/lists.ts'
import type { Page } from '#features/pagination.ts'
import type { StudyCard as Study } from '#features/studies/study-lists.server.ts'
import { StudyCard } from './study-card.tsx'

export const STUDY_PAGE_SIZE = LIST_PAGE_SIZE

/** Published studies, continued from /api as the reader scrolls (`pages` lists them). */
export function StudyList(props: { firstPage: Page<Study>; pages: PageFetcher<Page<Study>> }) {
  return (
    <PublishedList
      label="スタディ"
      firstPage={props.firstPage}
      pages={props.pages}
      renderItem={(study) => <StudyCard study={study} />}
    />
  )
}
