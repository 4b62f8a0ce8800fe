import { Link } from 'react-router'
import { AuthHeading, linkClass } from './auth-screen.tsx'

/** What the Google screens say on a site where Google sign-in is not configured. */
export function GoogleSignInDisabled({ title }: { title: string }) {
  return (
    <>
      <AuthHeading title={title}>
        このサイトでは、Google
        アカウントでのログインを現在受け付けていません。ユーザー名（またはメールアドレス）とパスワードでログインしてください。
      </AuthHeading>
      <div className="flex flex-col gap-3 sm:flex-row">
        <Link
          to="/auth/signin"
          className="inline-flex min-h-11 flex-1 items-center justify-center rounded-lg bg-brand-600 px-5 font-semibold text-white hover:bg-brand-700"
        >
          ログイン画面へ
        </Link>
        <Link
          to="/auth/signup"
          className="inline-flex min-h-11 flex-1 items-center justify-center rounded-lg border border-slate-300 px-5 font-semibold hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          無料で新規登録
        </Link>
      </div>
      <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">
        パスワードを忘れた場合は{' '}
        <Link to="/auth/forgotPassword" className={linkClass}>
          パスワードの再設定
        </Link>
        から新しいパスワードを設定できます。
      </p>
    </>
  )
}
