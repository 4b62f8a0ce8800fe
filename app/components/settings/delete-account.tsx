import { useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { FormMessage, SubmitButton, TextField, useFocusOnErrors } from '#app/components/forms.tsx'
import { Section, type SettingsResult } from './section.tsx'

/** Deleting the account, after typing its username (the settings page's `deleteAccount` action). */
export function DeleteAccount({ username }: { username: string }) {
  const fetcher = useFetcher<SettingsResult>({ key: 'delete-account' })
  const [open, setOpen] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const messageRef = useRef<HTMLDivElement>(null)
  const result = fetcher.data?.intent === 'deleteAccount' ? fetcher.data : undefined
  useFocusOnErrors(result, formRef, messageRef)
  const firstField = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (open) firstField.current?.querySelector('input')?.focus()
  }, [open])

  return (
    <Section title="アカウントの削除" tone="danger">
      <p className="text-sm leading-relaxed text-slate-700 dark:text-slate-300">
        アカウントを削除すると、プロフィール、学習の記録、投稿したコース・ラボ・ストーリー・スタディ、メッセージがすべて削除され、元に戻せません。同じユーザー名で登録し直せるとは限りません。
      </p>
      {!open ? (
        <button
          type="button"
          onClick={() => setOpen(true)}
          aria-expanded={false}
          className="mt-4 inline-flex min-h-11 items-center rounded-lg border border-red-300 px-5 font-semibold text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950/50"
        >
          アカウントを削除する…
        </button>
      ) : (
        <fetcher.Form
          method="post"
          noValidate
          ref={formRef}
          className="mt-4 flex flex-col gap-3 rounded-lg bg-red-50 p-4 dark:bg-red-950/40"
        >
          <input type="hidden" name="intent" value="deleteAccount" />
          <input type="hidden" name="username" value={username} />
          {result?.formError && (
            <FormMessage tone="error" focusRef={messageRef}>
              {result.formError}
            </FormMessage>
          )}
          <div ref={firstField}>
            <TextField
              label={`確認のため、ユーザー名「${username}」を入力してください`}
              name="confirmUsername"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              required
              error={result?.errors?.confirmUsername}
            />
          </div>
          <div className="flex flex-col gap-3 sm:flex-row">
            <SubmitButton
              pending={fetcher.state !== 'idle'}
              pendingLabel="削除しています…"
              variant="danger"
            >
              アカウントを完全に削除する
            </SubmitButton>
            <button
              type="button"
              onClick={() => setOpen(false)}
              className="inline-flex min-h-11 items-center justify-center rounded-lg px-5 font-semibold hover:bg-red-100 dark:hover:bg-red-900/40"
            >
              やめる
            </button>
          </div>
        </fetcher.Form>
      )}
    </Section>
  )
}
