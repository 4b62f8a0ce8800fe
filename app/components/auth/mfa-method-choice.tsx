import type { MfaMethod } from '#app/lib/auth/sign-in-steps.ts'

const METHOD_LABELS: Record<MfaMethod, { title: string; body: string }> = {
  TOTP: { title: '認証アプリ', body: 'Google Authenticator などのアプリに表示される6桁のコード' },
  EMAIL: { title: 'メール', body: '登録したメールアドレスに届く6桁のコード' },
  SMS: { title: 'SMS', body: '登録した電話番号に届く6桁のコード' },
}

/** The choice of second factor, when the pool offers more than one (at sign-in or its setup). */
export function MfaMethodChoice({ options, error }: { options: MfaMethod[]; error?: string }) {
  return (
    <fieldset aria-describedby={error ? 'method-error' : undefined}>
      <legend className="text-sm font-semibold">コードを受け取る方法</legend>
      <div className="mt-2 flex flex-col gap-2">
        {options.map((method, index) => (
          <label
            key={method}
            className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 px-4 py-3 has-checked:border-brand-500 has-checked:bg-brand-50 dark:border-slate-600 dark:has-checked:bg-slate-800"
          >
            <input
              type="radio"
              name="method"
              value={method}
              defaultChecked={index === 0}
              className="mt-1.5 accent-brand-600"
            />
            <span>
              <span className="block font-semibold">{METHOD_LABELS[method].title}</span>
              <span className="block text-sm text-slate-600 dark:text-slate-400">
                {METHOD_LABELS[method].body}
              </span>
            </span>
          </label>
        ))}
      </div>
      <p id="method-error" className="min-h-5 text-sm text-red-700 dark:text-red-300">
        {error}
      </p>
    </fieldset>
  )
}
