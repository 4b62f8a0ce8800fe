import { data } from 'react-router'
import { EmptyState } from '#app/components/empty-state.tsx'
import { PERSON_PAGE_SIZE, PersonList } from '#app/components/people/person-list.tsx'
import { pagesOf } from '#app/lib/api/lists.ts'
import { publicPageHeaders } from '#app/lib/cache-control.ts'
import { contentForPage } from '#app/lib/content-response.server.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { profilePath } from '#features/content-kinds.ts'
import { listFollows } from '#features/follows/follows.server.ts'
import { pageQuery } from '#features/pagination.ts'
import type { Route } from './+types/follows'

export const headers = publicPageHeaders

const LISTS = {
  'profile-followers': {
    direction: 'followers',
    title: 'フォロワー',
    empty: 'まだフォロワーはいません',
    body: 'フォローされると、ここに一覧で表示されます。',
  },
  'profile-following': {
    direction: 'following',
    title: 'フォロー中',
    empty: 'まだ誰もフォローしていません',
    body: 'フォローした人が、ここに一覧で表示されます。',
  },
} as const

function listOf(routeId: string) {
  const list = LISTS[routeId as keyof typeof LISTS]
  if (!list) throw new Error(`routes/profiles/follows.tsx has no entry for route id "${routeId}"`)
  return list
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const profile = matches.find((match) => match?.id === 'routes/profiles/layout')?.data as
    | { profile: { displayName: string } }
    | undefined
  const name = profile?.profile.displayName ?? ''
  const title = loaderData ? LISTS[loaderData.routeId].title : ''
  return pageMeta(matches, {
    title: `${name} さんの${title}`,
    description: `${name} さんの${title}の一覧です。`,
  })
}

/** `/{user}/followers` and `/{user}/following`: the first page; the rest comes from /api. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const routeId = new URL(request.url).pathname.replace(/\/$/, '').endsWith('/followers')
    ? 'profile-followers'
    : 'profile-following'
  const { direction } = listOf(routeId)
  const firstPage = await contentForPage(
    listFollows(context.db, params.user, direction, pageQuery.parse({ limit: PERSON_PAGE_SIZE })),
    `${profilePath(params.user)}/${direction}`,
  )
  return data({ routeId: routeId as keyof typeof LISTS, username: params.user, firstPage })
}

export default function ProfileFollows({ loaderData }: Route.ComponentProps) {
  const list = listOf(loaderData.routeId)
  return (
    <div>
      <h2 id="profile-tab-heading" className="text-lg font-bold">
        {list.title}
      </h2>
      {loaderData.firstPage.items.length === 0 ? (
        <div className="mt-4">
          <EmptyState title={list.empty}>{list.body}</EmptyState>
        </div>
      ) : (
        <PersonList
          key={`${loaderData.username}/${list.direction}`}
          label={list.title}
          firstPage={loaderData.firstPage}
          pages={pagesOf(list.direction === 'followers' ? 'people.followers' : 'people.following', {
            username: loaderData.username,
          })}
        />
      )}
    </div>
  )
}
