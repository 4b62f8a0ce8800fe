import { useEffect, useState } from 'react'
import { Link, useNavigate, useRevalidator } from 'react-router'
import { AuthHeading, linkClass, NeedsJavaScript } from '#app/components/auth-screen.tsx'
import { FormMessage, Spinner } from '#app/components/forms.tsx'
import { GoogleSignInDisabled } from '#app/components/google-disabled.tsx'
import { authErrorMessage } from '#app/lib/auth/errors.ts'
import { loadAuth } from '#app/lib/auth/load-auth.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { useIdentitySettings } from '#app/lib/root-data.ts'
import type { Route } from './+types/callback-google'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Google でログイン',
    description: 'Google アカウントでのログインを完了します。',
  })

/**
 * Where Google sign-in returns. Configuring Amplify on this page completes the OAuth flow
 * (it reads `code` and `state` from the address); the page waits for Amplify's verdict.
 */
export default function CallbackGoogle() {
  const { googleSignIn } = useIdentitySettings()
  const navigate = useNavigate()
  const { revalidate } = useRevalidator()
  const [error, setError] = useState<string>()

  useEffect(() => {
    if (!googleSignIn) return
    const address = new URL(window.location.href)
    if (address.searchParams.get('error')) {
      setError('Google でのログインが完了しませんでした。もう一度お試しください。')
      return
    }
    let stop: (() => void) | undefined
    let cancelled = false
    loadAuth()
      .then(async (auth) => {
        if (cancelled) return
        stop = auth.Hub.listen('auth', ({ payload }) => {
          if (payload.event === 'signInWithRedirect') {
            void revalidate().then(() => navigate('/', { replace: true }))
          } else if (payload.event === 'signInWithRedirect_failure') {
            setError(authErrorMessage(payload.data?.error, 'signIn').message)
          }
        })
        // Already finished before the listener was attached.
        const user = await auth.getCurrentUser().catch(() => undefined)
        if (user && !cancelled) {
          await revalidate()
          navigate('/', { replace: true })
        }
      })
      .catch((failure: unknown) => setError(authErrorMessage(failure, 'signIn').message))
    return () => {
      cancelled = true
      stop?.()
    }
  }, [googleSignIn, navigate, revalidate])

  if (!googleSignIn) return <GoogleSignInDisabled title="Google でログイン" />
  return (
    <>
      <AuthHeading title="Google でログイン" />
      <NeedsJavaScript />
      {error ? (
        <>
          <FormMessage tone="error">{error}</FormMessage>
          <p className="mt-6 text-sm">
            <Link to="/auth/signin" className={linkClass}>
              ログイン画面に戻る
            </Link>
          </p>
        </>
      ) : (
        <p role="status" className="flex items-center gap-3 text-slate-700 dark:text-slate-300">
          <Spinner />
          ログインしています。そのままお待ちください…
        </p>
      )}
    </>
  )
}
