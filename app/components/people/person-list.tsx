import { Link } from 'react-router'
import { Avatar } from '#app/components/avatar.tsx'
import { InfiniteList } from '#app/components/infinite-list.tsx'
import type { PageFetcher } from '#app/lib/api/lists.ts'
import { useSettings, useStorageSettings } from '#app/lib/root-data.ts'
import { publicObjectUrl } from '#app/lib/storage/storage-settings.ts'
import { profilePath } from '#features/content-kinds.ts'
import type { FollowCard } from '#features/follows/follow-views.ts'
import type { Page } from '#features/pagination.ts'

export const PERSON_PAGE_SIZE = 20

/** Followers or followed people, continued from /api (`pages`) as the reader scrolls. */
export function PersonList(props: {
  label: string
  firstPage: Page<FollowCard>
  pages: PageFetcher<Page<FollowCard>>
}) {
  const { apiGatewayUrl } = useSettings()
  const storage = useStorageSettings()
  return (
    <InfiniteList<FollowCard>
      label={props.label}
      firstPage={props.firstPage}
      fetchPage={(cursor) => props.pages(apiGatewayUrl, cursor, PERSON_PAGE_SIZE)}
      getKey={(person) => person.followId}
      renderItem={(person) => (
        <div className="flex items-start gap-3 py-3">
          <Avatar
            name={person.displayName}
            url={person.avatarKey ? publicObjectUrl(storage, person.avatarKey) : null}
            size="small"
          />
          <div className="min-w-0">
            <Link to={profilePath(person.username)} className="font-semibold hover:underline">
              {person.displayName}
            </Link>
            <p className="text-xs text-slate-500 dark:text-slate-400">@{person.username}</p>
            {person.bio && (
              <p className="mt-1 line-clamp-2 text-sm text-slate-700 dark:text-slate-300">
                {person.bio}
              </p>
            )}
          </div>
        </div>
      )}
      className="divide-y divide-slate-200 dark:divide-slate-800"
    />
  )
}
