import { useMatches } from 'react-router'
import { EmptyState } from '#app/components/empty-state.tsx'
import { pageMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/upcoming'
import { UPCOMING_PAGES } from './upcoming-pages.ts'

function pageFor(routeId: string | undefined) {
  const page = routeId === undefined ? undefined : UPCOMING_PAGES[routeId]
  if (!page) throw new Error(`upcoming-pages.ts has no entry for route id "${routeId}"`)
  return page
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const page = pageFor(matches.at(-1)?.id)
  return pageMeta(matches, { title: page.title, description: page.description })
}

export default function UpcomingPageView() {
  const page = pageFor(useMatches().at(-1)?.id)
  return (
    <div>
      <h1 className="text-2xl font-bold">{page.heading}</h1>
      <div className="mt-6">
        <EmptyState title={page.emptyTitle} actions={page.actions}>
          {page.emptyBody}
        </EmptyState>
      </div>
    </div>
  )
}
