import { Link } from 'react-router'
import { AuthHeading, linkClass } from '../../components/auth-screen.tsx'
import { GoogleSignInDisabled } from '../../components/google-disabled.tsx'
import { USERNAME_RULE } from '../../lib/auth/validation.ts'
import { pageMeta } from '../../lib/meta.ts'
import { useIdentitySettings } from '../../lib/root-data.ts'
import type { Route } from './+types/setup-username'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'ユーザー名の設定',
    description: 'はじめて Google でログインしたときに、サイトで使うユーザー名を決めます。',
  })

/**
 * A first Google sign-in continues here to choose a username. The step is part of the
 * server's Google flow, which arrives with it; until then the page says what it is for.
 */
export default function SetupUsername() {
  const { googleSignIn } = useIdentitySettings()
  if (!googleSignIn) return <GoogleSignInDisabled title="ユーザー名の設定" />
  return (
    <>
      <AuthHeading title="ユーザー名を決めましょう">
        はじめて Google でログインしたときに、この画面でサイトで使うユーザー名を決めます。
      </AuthHeading>
      <p className="text-sm text-slate-700 dark:text-slate-300">{USERNAME_RULE}</p>
      <p className="mt-6 text-sm">
        <Link to="/auth/signin" className={linkClass}>
          ログイン画面から Google でログインする
        </Link>
      </p>
    </>
  )
}
