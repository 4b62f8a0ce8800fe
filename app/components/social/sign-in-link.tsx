import { Link, useLocation } from 'react-router'
import { query } from '#app/lib/query-string.ts'

/** For guests: sign in, then come back to this page. */
export function SignInLink({ children }: { children: string }) {
  const location = useLocation()
  return (
    <Link
      to={`/auth/signin${query({ redirectTo: location.pathname })}`}
      className="font-semibold text-brand-600 hover:underline dark:text-brand-100"
    >
      {children}
    </Link>
  )
}
