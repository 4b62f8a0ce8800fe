import { Link } from 'react-router'
import { formatDate } from '#app/lib/format.ts'
import { profilePath } from '#features/content-kinds.ts'

/** Who published an item and when, as lists show it: 「表示名 ・ 日付」, the name linking to the profile. */
export function Byline(props: {
  author: { username: string; displayName: string }
  publishedAt: number
}) {
  return (
    <>
      <Link to={profilePath(props.author.username)} className="hover:underline">
        {props.author.displayName}
      </Link>
      <span aria-hidden="true"> ・ </span>
      <time dateTime={new Date(props.publishedAt).toISOString()}>
        {formatDate(props.publishedAt)}
      </time>
    </>
  )
}
