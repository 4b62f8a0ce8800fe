import { CourseCard } from '#app/components/course-card.tsx'
import { HeadingWithCreate } from '#app/components/create-button.tsx'
import { EmptyState } from '#app/components/empty-state.tsx'
import { publicPageHeaders } from '#app/lib/cache-control.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { listCoursesByAuthor } from '#features/courses/catalogue.server.ts'
import type { Route } from './+types/overview'

export const headers = publicPageHeaders

export const meta: Route.MetaFunction = ({ matches }) => {
  const profile = matches.find((match) => match?.id === 'routes/profiles/layout')?.data as
    | { profile: { displayName: string; username: string; bio: string } }
    | undefined
  if (!profile) return []
  return pageMeta(matches, {
    title: `${profile.profile.displayName} (@${profile.profile.username})`,
    description: profile.profile.bio || `${profile.profile.displayName} さんのプロフィール`,
  })
}

export async function loader({ context, params }: Route.LoaderArgs) {
  return { username: params.user, courses: await listCoursesByAuthor(context.db, params.user) }
}

export default function ProfileOverview({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="profile-courses">
      <HeadingWithCreate kind="courses" owner={loaderData.username}>
        <h2 id="profile-courses" className="text-lg font-bold">
          公開中のコース
        </h2>
      </HeadingWithCreate>
      {loaderData.courses.length === 0 ? (
        <div className="mt-4">
          <EmptyState title="公開中のコースはまだありません" />
        </div>
      ) : (
        <ul className="mt-4 grid gap-4 sm:grid-cols-2">
          {loaderData.courses.map((course) => (
            <li key={course.id}>
              <CourseCard course={course} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
