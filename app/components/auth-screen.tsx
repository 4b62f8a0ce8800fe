import { type ReactNode, useState } from 'react'
import { Link } from 'react-router'
import { errorResult } from '#app/lib/auth/flow.ts'
import { loadAuth } from '#app/lib/auth/load-auth.ts'
import { query } from '#app/lib/query-string.ts'
import { useIdentitySettings, useSettings } from '#app/lib/root-data.ts'
import { FormMessage, Spinner } from './forms.tsx'

/** The heading of an auth screen, with an optional line of explanation. */
export function AuthHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-xl font-bold sm:text-2xl">{title}</h1>
      {children && (
        <div className="mt-2 text-sm leading-relaxed text-slate-600 dark:text-slate-400">
          {children}
        </div>
      )}
    </div>
  )
}

/** Sign-in runs in the browser (the password never leaves it): say so when scripts are off. */
export function NeedsJavaScript() {
  return (
    <noscript>
      <div className="mb-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-100">
        この画面を使うには JavaScript
        を有効にしてください。パスワードはブラウザの中で暗号化してから送るため、JavaScript
        が必要です。
      </div>
    </noscript>
  )
}

/**
 * Only while the site sends no mail (no SMTP_URL): where the code is instead. The mailbox is
 * served to the machine the site runs on, and every code is also printed in the server log.
 */
export function DevMailboxNote() {
  const { devMailboxPath } = useSettings()
  if (!devMailboxPath) return null
  return (
    <div
      data-dev-mailbox-note
      className="mb-4 rounded-lg border border-sky-300 bg-sky-50 px-4 py-3 text-sm text-sky-950 dark:border-sky-700 dark:bg-sky-950/60 dark:text-sky-100"
    >
      このサイトはメールを送信しない設定です（SMTP_URL
      が未設定）。コードは、サイトを動かしているマシンで{' '}
      <a
        href={devMailboxPath}
        target="_blank"
        rel="noopener"
        className="font-semibold underline underline-offset-2"
      >
        開発用メールボックス
      </a>{' '}
      を開くか、サーバーのログ（mail not sent の行）で確認できます。
    </div>
  )
}

/** "Google でログイン", shown only when Google sign-in is configured. */
export function GoogleSignIn({ label }: { label: string }) {
  const { googleSignIn, httpsPort } = useIdentitySettings()
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string>()
  if (!googleSignIn) return null
  return (
    <div className="mb-6">
      <button
        type="button"
        aria-disabled={pending || undefined}
        onClick={async () => {
          if (pending) return
          const { protocol, hostname, pathname, search } = window.location
          if (protocol === 'http:' && httpsPort) {
            window.location.assign(`https://${hostname}:${httpsPort}${pathname}${search}`)
            return
          }
          setPending(true)
          setError(undefined)
          try {
            const auth = await loadAuth()
            await auth.signInWithRedirect({ provider: 'Google' })
          } catch (failure) {
            setError(
              errorResult(failure, 'signIn').formError ?? 'Google でログインできませんでした。',
            )
            setPending(false)
          }
        }}
        className="flex min-h-11 w-full items-center justify-center gap-3 rounded-lg border border-slate-300 bg-white px-4 py-2.5 font-semibold text-slate-900 hover:bg-slate-50 aria-disabled:opacity-70 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
      >
        {pending ? <Spinner /> : <GoogleMark />}
        {label}
      </button>
      {error && (
        <div className="mt-3">
          <FormMessage tone="error">{error}</FormMessage>
        </div>
      )}
      <p className="mt-6 flex items-center gap-3 text-xs text-slate-500 dark:text-slate-400">
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
        または
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
      </p>
    </div>
  )
}

function GoogleMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 48 48" className="size-5">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.2-.1-2.4-.4-3.5z"
      />
      <path
        fill="#FF3D00"
        d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C36.9 39.2 44 34 44 24c0-1.2-.1-2.4-.4-3.5z"
      />
    </svg>
  )
}

/** A small link under a form ("アカウントをお持ちでない方は…"). */
export function AuthFootnote({ children }: { children: ReactNode }) {
  return (
    <div className="mt-6 border-t border-slate-200 pt-5 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
      {children}
    </div>
  )
}

/**
 * The ways into the account that already has an email address, beside "this address is in
 * use": sign in with it, or reset the password of that account.
 */
export function EmailInUseLinks({ email, redirectTo }: { email?: string; redirectTo?: string }) {
  return (
    <p data-email-in-use className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      <Link to={`/auth/signin${query({ username: email, redirectTo })}`} className={linkClass}>
        このアドレスでログイン
      </Link>
      <Link to={`/auth/forgotPassword${query({ username: email })}`} className={linkClass}>
        パスワードを再設定
      </Link>
    </p>
  )
}

export const linkClass =
  'font-semibold whitespace-nowrap text-brand-600 underline decoration-1 underline-offset-3 hover:decoration-2 dark:text-sky-300'
