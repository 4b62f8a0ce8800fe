import { type FormEvent, useEffect, useState } from 'react'
import { CodeField, FormMessage, Spinner, SubmitButton } from '#app/components/forms.tsx'
import { TotpSetup } from '#app/components/totp-setup.tsx'
import { authErrorMessage } from '#app/lib/auth/errors.ts'
import { loadAuth } from '#app/lib/auth/load-auth.ts'
import { codeError, normalizeCode } from '#app/lib/auth/validation.ts'

type State =
  | { kind: 'loading' }
  | { kind: 'off' }
  | { kind: 'setup'; secret: string; uri: string }
  | { kind: 'on' }
  | { kind: 'failed'; message: string }

/**
 * Authenticator-app MFA: turn it on by scanning a QR code and entering one code, or off.
 * Shown only when the user pool supports it (AssociateSoftwareToken and friends).
 */
export function MfaSettings({ username }: { username: string }) {
  const [state, setState] = useState<State>({ kind: 'loading' })
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<{ message: string; field?: string }>()
  const [notice, setNotice] = useState<string>()

  useEffect(() => {
    let cancelled = false
    loadAuth()
      .then((auth) => auth.fetchMFAPreference())
      .then((preference) => {
        if (!cancelled) setState({ kind: preference.enabled?.includes('TOTP') ? 'on' : 'off' })
      })
      .catch((failure: unknown) => {
        if (!cancelled) setState({ kind: 'failed', message: authErrorMessage(failure).message })
      })
    return () => {
      cancelled = true
    }
  }, [])

  async function run(task: () => Promise<void>) {
    if (pending) return
    setPending(true)
    setError(undefined)
    setNotice(undefined)
    try {
      await task()
    } catch (failure) {
      setError(authErrorMessage(failure, 'mfaSetup'))
    } finally {
      setPending(false)
    }
  }

  const startSetup = () =>
    run(async () => {
      const auth = await loadAuth()
      const details = await auth.setUpTOTP()
      setState({
        kind: 'setup',
        secret: details.sharedSecret,
        uri: details.getSetupUri('テックラボ', username).toString(),
      })
    })

  const verify = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const code = normalizeCode(String(new FormData(event.currentTarget).get('code') ?? ''))
    const invalid = codeError(code)
    if (invalid) {
      setError({ message: invalid, field: 'code' })
      return
    }
    return run(async () => {
      const auth = await loadAuth()
      await auth.verifyTOTPSetup({ code })
      await auth.updateMFAPreference({ totp: 'PREFERRED' })
      setState({ kind: 'on' })
      setNotice('二段階認証を有効にしました。次回のログインから、認証アプリのコードが必要です。')
    })
  }

  const turnOff = () =>
    run(async () => {
      const auth = await loadAuth()
      await auth.updateMFAPreference({ totp: 'DISABLED' })
      setState({ kind: 'off' })
      setNotice('二段階認証を無効にしました。')
    })

  return (
    <div className="flex flex-col gap-3 text-sm">
      {notice && <FormMessage tone="success">{notice}</FormMessage>}
      {error && !error.field && <FormMessage tone="error">{error.message}</FormMessage>}
      {state.kind === 'loading' && (
        <p className="flex items-center gap-2" role="status">
          <Spinner /> 設定を確認しています…
        </p>
      )}
      {state.kind === 'failed' && <FormMessage tone="error">{state.message}</FormMessage>}
      {state.kind === 'on' && (
        <>
          <p>
            <span className="rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100">
              有効
            </span>{' '}
            ログインのときに、認証アプリのコードを入力します。
          </p>
          <div>
            <button
              type="button"
              onClick={turnOff}
              aria-disabled={pending || undefined}
              className="inline-flex min-h-11 items-center rounded-lg border border-slate-300 px-5 font-semibold hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
            >
              二段階認証を無効にする
            </button>
          </div>
        </>
      )}
      {state.kind === 'off' && (
        <>
          <p className="leading-relaxed text-slate-700 dark:text-slate-300">
            現在は無効です。有効にすると、ログインのときにパスワードに加えて、認証アプリ（Google
            Authenticator など）に表示される6桁のコードが必要になります。
          </p>
          <div>
            <button
              type="button"
              onClick={startSetup}
              aria-disabled={pending || undefined}
              className="inline-flex min-h-11 items-center gap-2 rounded-lg bg-brand-600 px-5 font-semibold text-white hover:bg-brand-700"
            >
              {pending && <Spinner />}
              認証アプリを設定する
            </button>
          </div>
        </>
      )}
      {state.kind === 'setup' && (
        <form onSubmit={verify} noValidate className="flex flex-col gap-3">
          <p className="leading-relaxed">
            認証アプリで QR コードを読み取り、アプリに表示された6桁のコードを入力してください。
          </p>
          <TotpSetup uri={state.uri} secret={state.secret} />
          <CodeField
            label="6桁のコード"
            name="code"
            required
            error={error?.field === 'code' ? error.message : undefined}
          />
          <div>
            <SubmitButton pending={pending} pendingLabel="確認しています…">
              有効にする
            </SubmitButton>
          </div>
        </form>
      )}
    </div>
  )
}
