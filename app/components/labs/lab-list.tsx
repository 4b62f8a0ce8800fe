import { EmptyState } from '#app/components/empty-state.tsx'
import { PublishedList } from '#app/components/published-list.tsx'
import type { PageFetcher } from '#app/lib/api/lists.ts'
import type { LabCard as Card } from '#features/labs/lab-lists.server.ts'
import type { Page } from '#features/pagination.ts'
import { LabCard } from './lab-card.tsx'

const KINDS = {
  labs: {
    label: 'ラボ',
    empty: '公開中のラボはまだありません',
    body: 'ラボは学んだことを生かして作った作品です。公開されると、ここに並びます。',
  },
  labs_stories: {
    label: 'ストーリー',
    empty: '公開中のストーリーはまだありません',
    body: '作品づくりの工夫やつまずきを書いた記事が、ここに並びます。',
  },
}

/** Published labs or lab stories as cards (`pages` continues them), or why there are none. */
export function LabList(props: {
  kind: 'labs' | 'labs_stories'
  firstPage: Page<Card>
  pages: PageFetcher<Page<Card>>
}) {
  const kind = KINDS[props.kind]
  if (props.firstPage.items.length === 0) {
    return (
      <div className="mt-6">
        <EmptyState title={kind.empty}>{kind.body}</EmptyState>
      </div>
    )
  }
  return (
    <PublishedList
      label={kind.label}
      firstPage={props.firstPage}
      pages={props.pages}
      renderItem={(item) => <LabCard item={item} path={props.kind} />}
    />
  )
}
