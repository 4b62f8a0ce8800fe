import { Form, Link } from 'react-router'
import { query } from '#app/lib/query-string.ts'
import { useCurrentUser } from '#app/lib/root-data.ts'
import { profilePath } from '#features/content-kinds.ts'

const buttonClass =
  'inline-flex min-h-10 items-center rounded-lg border border-slate-300 px-4 text-sm font-semibold hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800'

/**
 * 「メッセージ」 on a profile: opens the room with this user (the one they already share, or a
 * new one) through /dms' action, a plain form that works before scripts load. Guests sign in
 * first; one's own profile has none.
 */
export function MessageButton({ username }: { username: string }) {
  const user = useCurrentUser()
  if (user?.username === username) return null
  if (!user) {
    return (
      <Link
        to={`/auth/signin${query({ redirectTo: profilePath(username) })}`}
        className={buttonClass}
      >
        メッセージ
      </Link>
    )
  }
  return (
    <Form method="post" action="/dms">
      <input type="hidden" name="username" value={username} />
      <button type="submit" className={buttonClass} data-message-button>
        メッセージ
      </button>
    </Form>
  )
}
