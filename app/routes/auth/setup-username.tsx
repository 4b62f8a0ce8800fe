import { useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { AuthHeading, linkClass } from '#app/components/auth-screen.tsx'
import { SubmitButton, TextField } from '#app/components/forms.tsx'
import { GoogleSignInDisabled } from '#app/components/google-disabled.tsx'
import { USERNAME_RULE, usernameError } from '#app/lib/auth/validation.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { useIdentitySettings } from '#app/lib/root-data.ts'
import type { Route } from './+types/setup-username'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'ユーザー名の設定',
    description: 'はじめて Google でログインしたときに、サイトで使うユーザー名を決めます。',
  })

export async function loader({ context, request }: Route.LoaderArgs) {
  return { pending: context.auth.hasPendingGoogleSignUp(request) }
}

/**
 * A first Google sign-in continues here to choose a username. The sign-in waits on the
 * server (a short-lived step named by an HttpOnly cookie); the form posts to the hosted
 * endpoints' `/oauth2/setupUsername`, which applies the sign-up rules and either comes back
 * here with the reason or finishes the sign-in at the app's Google callback. A plain form:
 * it works before (and without) JavaScript.
 */
export default function SetupUsername({ loaderData }: Route.ComponentProps) {
  const { googleSignIn } = useIdentitySettings()
  const [searchParams] = useSearchParams()
  const [error, setError] = useState(searchParams.get('error') ?? undefined)
  const [submitting, setSubmitting] = useState(false)
  if (!googleSignIn) return <GoogleSignInDisabled title="ユーザー名の設定" />
  if (!loaderData.pending || searchParams.get('expired')) {
    return (
      <>
        <AuthHeading title="ユーザー名の設定">
          Google でのログインの途中で時間が経ったため、ユーザー名を設定できませんでした。もう一度
          Google でログインしてください。
        </AuthHeading>
        <p className="text-sm">
          <Link to="/auth/signin" reloadDocument className={linkClass}>
            ログイン画面へ
          </Link>
        </p>
      </>
    )
  }
  return (
    <>
      <AuthHeading title="ユーザー名を決めましょう">
        Google アカウントでの登録を続けます。サイトで使うユーザー名を決めてください。
      </AuthHeading>
      <form
        method="post"
        action="/oauth2/setupUsername"
        noValidate
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          const username = new FormData(event.currentTarget).get('username')
          const problem = usernameError(typeof username === 'string' ? username.trim() : '')
          if (problem || submitting) {
            event.preventDefault()
            setError(problem)
            return
          }
          setSubmitting(true)
        }}
      >
        <TextField
          label="ユーザー名"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          required
          hint={USERNAME_RULE}
          defaultValue={searchParams.get('username') ?? searchParams.get('suggestion') ?? ''}
          error={error}
        />
        <SubmitButton pending={submitting} pendingLabel="登録しています…" className="mt-1 w-full">
          このユーザー名で始める
        </SubmitButton>
      </form>
    </>
  )
}
