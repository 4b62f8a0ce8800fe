import { useMatches } from 'react-router'
import { EmptyState } from '../../components/empty-state.tsx'
import { publicPageHeaders } from '../../lib/cache-control.ts'
import { pageMeta } from '../../lib/meta.ts'
import type { Route } from './+types/tab'

export const headers = publicPageHeaders

/** Profile tabs whose lists arrive with the content and community features. */
const TABS: Record<string, { title: string; empty: string; body: string }> = {
  'profile-labs': {
    title: 'ラボ',
    empty: '公開中のラボはまだありません',
    body: 'ラボは学習の成果として作った作品です。公開されると、ここに並びます。',
  },
  'profile-labs-stories': {
    title: 'ストーリー',
    empty: '公開中のストーリーはまだありません',
    body: 'ラボを作る中で学んだことを書いた記事が、ここに並びます。',
  },
}

function tabOf(id: string) {
  const tab = TABS[id]
  if (!tab) throw new Error(`routes/profiles/tab.tsx has no entry for route id "${id}"`)
  return tab
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const self = matches.at(-1)
  const profile = matches.find((match) => match?.id === 'routes/profiles/layout')?.data as
    | { profile: { displayName: string } }
    | undefined
  if (!self || !profile) return []
  const tab = tabOf(self.id)
  return pageMeta(matches, {
    title: `${profile.profile.displayName} さんの${tab.title}`,
    description: `${profile.profile.displayName} さんの${tab.title}の一覧です。`,
  })
}

export default function ProfileTab() {
  const self = useMatches().at(-1)
  const tab = tabOf(self?.id ?? '')
  return (
    <section aria-labelledby="profile-tab-heading">
      <h2 id="profile-tab-heading" className="text-lg font-bold">
        {tab.title}
      </h2>
      <div className="mt-4">
        <EmptyState title={tab.empty}>{tab.body}</EmptyState>
      </div>
    </section>
  )
}
