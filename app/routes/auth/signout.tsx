import { Form, Link } from 'react-router'
import { AuthHeading, linkClass, NeedsJavaScript } from '#app/components/auth-screen.tsx'
import { FormMessage, SubmitButton } from '#app/components/forms.tsx'
import { errorResult, type FormResult, sessionCookieCleared } from '#app/lib/auth/flow.ts'
import { loadAuth } from '#app/lib/auth/load-auth.ts'
import { useSubmitting } from '#app/lib/auth/use-submitting.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { useCurrentUser } from '#app/lib/root-data.ts'
import type { Route } from './+types/signout'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: 'ログアウト', description: 'このサイトからログアウトします。' })

export async function loader({ context, request }: Route.LoaderArgs) {
  // Cookies the server could not accept (an expired session) can still be signed out.
  return {
    hasSession: context.auth.hasSession(request),
  }
}

type SignOutResult = FormResult & { signedOut?: 'here' | 'everywhere' }

export async function clientAction({ request }: Route.ClientActionArgs): Promise<SignOutResult> {
  const form = await request.formData()
  const global = form.get('global') === 'on'
  const auth = await loadAuth()
  try {
    await auth.signOut({ global })
  } catch (error) {
    return errorResult(error, 'signOut')
  }
  await sessionCookieCleared(auth.settings.sessionCookie)
  return { signedOut: global ? 'everywhere' : 'here' }
}

export default function SignOut({ loaderData, actionData }: Route.ComponentProps) {
  const user = useCurrentUser()
  const submitting = useSubmitting()

  if (actionData?.signedOut) {
    return (
      <>
        <AuthHeading title="ログアウトしました">
          {actionData.signedOut === 'everywhere'
            ? 'すべての端末でログアウトしました。ほかの端末でも、次に使うときにもう一度ログインが必要です。'
            : 'この端末からログアウトしました。ご利用ありがとうございました。'}
        </AuthHeading>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Link
            to="/"
            className="inline-flex min-h-11 flex-1 items-center justify-center rounded-lg bg-brand-600 px-5 font-semibold text-white hover:bg-brand-700"
          >
            トップページへ
          </Link>
          <Link
            to="/auth/signin"
            className="inline-flex min-h-11 flex-1 items-center justify-center rounded-lg border border-slate-300 px-5 font-semibold hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            もう一度ログイン
          </Link>
        </div>
      </>
    )
  }

  if (!user && !loaderData.hasSession) {
    return (
      <>
        <AuthHeading title="ログアウト">
          現在ログインしていないため、ログアウトの必要はありません。
        </AuthHeading>
        <p className="text-sm">
          <Link to="/auth/signin" className={linkClass}>
            ログイン
          </Link>
          <span aria-hidden="true"> ・ </span>
          <Link to="/" className={linkClass}>
            トップページへ
          </Link>
        </p>
      </>
    )
  }

  return (
    <>
      <AuthHeading title="ログアウト">
        {user ? (
          <p>
            <strong className="font-semibold text-slate-900 dark:text-slate-100">
              {user.displayName}（@{user.username}）
            </strong>
            としてログインしています。ログアウトしますか？
          </p>
        ) : (
          <p>この端末に残っているログイン情報を消去します。</p>
        )}
      </AuthHeading>
      <NeedsJavaScript />
      <Form method="post" className="flex flex-col gap-4">
        {actionData?.formError && <FormMessage tone="error">{actionData.formError}</FormMessage>}
        <label className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 px-4 py-3 dark:border-slate-700">
          <input
            type="checkbox"
            name="global"
            className="mt-1.5 size-4 accent-brand-600"
            aria-describedby="global-hint"
          />
          <span>
            <span className="block font-semibold">すべての端末からログアウト</span>
            <span id="global-hint" className="block text-sm text-slate-600 dark:text-slate-400">
              ほかのパソコンやスマートフォンでのログインも終了します。端末をなくしたときや、共用のパソコンでログアウトし忘れたときに使います。
            </span>
          </span>
        </label>
        <SubmitButton pending={submitting} pendingLabel="ログアウトしています…" className="w-full">
          ログアウト
        </SubmitButton>
        <Link to="/" className={`text-center text-sm ${linkClass}`}>
          ログアウトせずに戻る
        </Link>
      </Form>
    </>
  )
}
