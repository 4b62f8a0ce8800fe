import { data } from 'react-router'
import { HeadingWithCreate } from '#app/components/create-button.tsx'
import { LabList } from '#app/components/labs/lab-list.tsx'
import { LIST_PAGE_SIZE } from '#app/components/published-list.tsx'
import { pagesOf } from '#app/lib/api/lists.ts'
import { publicPageHeaders } from '#app/lib/cache-control.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { listPublishedLabStories, listPublishedLabs } from '#features/labs/lab-lists.server.ts'
import { studyListQuery } from '#features/studies/study-lists.server.ts'
import type { Route } from './+types/list'

export const headers = publicPageHeaders

const PAGES = {
  labs: {
    title: 'ラボ',
    description: '学習者が学んだことを生かして作った作品（ラボ）の一覧です。',
  },
  labs_stories: {
    title: 'ストーリー',
    description: 'ラボを作る中で学んだこと、工夫やつまずきを書いた記事の一覧です。',
  },
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, PAGES[loaderData?.kind ?? 'labs'])

/** `/labs` and `/labs_stories`: everyone's published labs or lab stories, newest first. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const query = studyListQuery.parse({ limit: LIST_PAGE_SIZE })
  if (new URL(request.url).pathname === '/labs_stories') {
    return data({
      kind: 'labs_stories' as const,
      firstPage: await listPublishedLabStories(context.db, query),
    })
  }
  return data({ kind: 'labs' as const, firstPage: await listPublishedLabs(context.db, query) })
}

export default function Labs({ loaderData: { kind, firstPage } }: Route.ComponentProps) {
  const page = PAGES[kind]
  return (
    <div>
      <HeadingWithCreate kind={kind}>
        <h1 className="text-2xl font-bold">{page.title}</h1>
      </HeadingWithCreate>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        {page.description}新しく公開された順に並んでいます。
      </p>
      {/* The cards are h3s, as under the home page's h2 sections; this keeps the order (heading-order). */}
      <h2 className="sr-only">{`${page.title}の一覧`}</h2>
      <LabList
        kind={kind}
        firstPage={firstPage}
        pages={pagesOf(kind === 'labs' ? 'labs.list' : 'labStories.list')}
      />
    </div>
  )
}
