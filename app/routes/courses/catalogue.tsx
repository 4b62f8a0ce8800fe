import { data } from 'react-router'
import { catalogueQuery, listPublishedCourses } from '../../../features/courses/catalogue.server.ts'
import type { CourseCard as Course } from '../../../features/courses/course-card.ts'
import type { Page } from '../../../features/pagination.ts'
import { CourseCard } from '../../components/course-card.tsx'
import { InfiniteList } from '../../components/infinite-list.tsx'
import { apiFetch } from '../../lib/api-client.ts'
import { publicPageHeaders } from '../../lib/cache-control.ts'
import { pageMeta } from '../../lib/meta.ts'
import { useSettings } from '../../lib/root-data.ts'
import type { Route } from './+types/catalogue'

export const headers = publicPageHeaders

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'コース一覧',
    description: 'HTML・CSS・JavaScript・Python など、初心者向けのプログラミングコースの一覧です。',
  })

const PAGE_SIZE = 12

export async function loader({ context }: Route.LoaderArgs) {
  const query = catalogueQuery.parse({ limit: PAGE_SIZE })
  const firstPage = await listPublishedCourses(context.db, query)
  return data({ firstPage })
}

export default function Catalogue({ loaderData }: Route.ComponentProps) {
  const { apiGatewayUrl } = useSettings()
  return (
    <div>
      <h1 className="text-2xl font-bold">コース一覧</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        気になるコースから始めましょう。「無料」のコースは無料プランですべて学べます。
      </p>
      <InfiniteList<Course>
        label="コース"
        firstPage={loaderData.firstPage}
        fetchPage={(cursor) =>
          apiFetch<Page<Course>>(
            apiGatewayUrl,
            `/courses?limit=${PAGE_SIZE}&cursor=${encodeURIComponent(cursor)}`,
          )
        }
        getKey={(course) => course.id}
        renderItem={(course) => <CourseCard course={course} />}
        className="mt-6 grid gap-4 sm:grid-cols-2"
      />
    </div>
  )
}
