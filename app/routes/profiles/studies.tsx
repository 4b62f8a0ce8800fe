import { data } from 'react-router'
import { HeadingWithCreate } from '#app/components/create-button.tsx'
import { STUDY_PAGE_SIZE, StudyList } from '#app/components/studies/study-list.tsx'
import { pagesOf } from '#app/lib/api/lists.ts'
import { publicPageHeaders } from '#app/lib/cache-control.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { listPublishedStudies, studyListQuery } from '#features/studies/study-lists.server.ts'
import type { Route } from './+types/studies'

export const headers = publicPageHeaders

export const meta: Route.MetaFunction = ({ matches }) => {
  const profile = matches.find((match) => match?.id === 'routes/profiles/layout')?.data as
    | { profile: { displayName: string } }
    | undefined
  const name = profile?.profile.displayName ?? ''
  return pageMeta(matches, {
    title: `${name} さんのスタディ`,
    description: `${name} さんのスタディの一覧です。`,
  })
}

/** `/{user}/studies`: the user's published studies (the profile layout answers unknown users). */
export async function loader({ context, params }: Route.LoaderArgs) {
  const query = studyListQuery.parse({ limit: STUDY_PAGE_SIZE })
  return data({
    username: params.user,
    firstPage: await listPublishedStudies(context.db, query, params.user),
  })
}

export default function ProfileStudies({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <HeadingWithCreate kind="studies" owner={loaderData.username}>
        <h2 id="profile-tab-heading" className="text-lg font-bold">
          スタディ
        </h2>
      </HeadingWithCreate>
      <StudyList
        firstPage={loaderData.firstPage}
        pages={pagesOf('studies.listByAuthor', { username: loaderData.username })}
      />
    </div>
  )
}
