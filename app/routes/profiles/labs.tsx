import { data } from 'react-router'
import { HeadingWithCreate } from '#app/components/create-button.tsx'
import { LabList } from '#app/components/labs/lab-list.tsx'
import { LIST_PAGE_SIZE } from '#app/components/published-list.tsx'
import { pagesOf } from '#app/lib/api/lists.ts'
import { publicPageHeaders } from '#app/lib/cache-control.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { listPublishedLabStories, listPublishedLabs } from '#features/labs/lab-lists.server.ts'
import { studyListQuery } from '#features/studies/study-lists.server.ts'
import type { Route } from './+types/labs'

export const headers = publicPageHeaders

const TITLES = { labs: 'ラボ', labs_stories: 'ストーリー' }

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const profile = matches.find((match) => match?.id === 'routes/profiles/layout')?.data as
    | { profile: { displayName: string } }
    | undefined
  const name = profile?.profile.displayName ?? ''
  const title = TITLES[loaderData?.kind ?? 'labs']
  return pageMeta(matches, {
    title: `${name} さんの${title}`,
    description: `${name} さんの${title}の一覧です。`,
  })
}

/**
 * `/{user}/labs` and `/{user}/labs_stories`: the user's published labs or lab stories (the
 * profile layout answers unknown users).
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const query = studyListQuery.parse({ limit: LIST_PAGE_SIZE })
  const username = params.user
  if (new URL(request.url).pathname.endsWith('/labs_stories')) {
    return data({
      kind: 'labs_stories' as const,
      username,
      firstPage: await listPublishedLabStories(context.db, query, { username }),
    })
  }
  return data({
    kind: 'labs' as const,
    username,
    firstPage: await listPublishedLabs(context.db, query, username),
  })
}

export default function ProfileLabs({ loaderData }: Route.ComponentProps) {
  const { kind, username, firstPage } = loaderData
  return (
    <div>
      <HeadingWithCreate kind={kind} owner={username}>
        <h2 id="profile-tab-heading" className="text-lg font-bold">
          {TITLES[kind]}
        </h2>
      </HeadingWithCreate>
      <LabList
        kind={kind}
        firstPage={firstPage}
        pages={pagesOf(kind === 'labs' ? 'labs.listByAuthor' : 'labStories.listByAuthor', {
          username,
        })}
      />
    </div>
  )
}
