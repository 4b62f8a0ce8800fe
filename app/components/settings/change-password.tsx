import { useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { NewPasswordFields } from '#app/components/auth/new-password-fields.tsx'
import {
  FormMessage,
  PasswordField,
  SubmitButton,
  useFocusOnErrors,
} from '#app/components/forms.tsx'
import { Section, type SettingsResult } from './section.tsx'

/** Changing the password (the settings page's `changePassword` action). */
export function ChangePassword() {
  const fetcher = useFetcher<SettingsResult>({ key: 'change-password' })
  const formRef = useRef<HTMLFormElement>(null)
  const messageRef = useRef<HTMLDivElement>(null)
  const result = fetcher.data?.intent === 'changePassword' ? fetcher.data : undefined
  useFocusOnErrors(result, formRef, messageRef)
  const [generation, setGeneration] = useState(0)
  const errors = result?.errors ?? {}

  // A changed password empties the form (and its checklist) for the next change.
  useEffect(() => {
    if (result?.done) setGeneration((value) => value + 1)
  }, [result])

  return (
    <Section title="パスワードの変更">
      <p className="text-sm leading-relaxed text-slate-700 dark:text-slate-300">
        変更すると、いま使っているこの端末以外でのログインはすべて終了します。ほかの端末やブラウザでは、新しいパスワードでもう一度ログインしてください。パスワードを忘れて再設定した場合は、すべての端末でログインが終了します。
      </p>
      <fetcher.Form
        key={generation}
        method="post"
        noValidate
        ref={formRef}
        className="flex flex-col gap-3"
      >
        <input type="hidden" name="intent" value="changePassword" />
        {result?.formError && (
          <FormMessage tone="error" focusRef={messageRef}>
            {result.formError}
          </FormMessage>
        )}
        {result?.notice && <FormMessage tone="success">{result.notice}</FormMessage>}
        <PasswordField
          label="現在のパスワード"
          name="oldPassword"
          autoComplete="current-password"
          required
          error={errors.oldPassword}
        />
        <NewPasswordFields errors={errors} />
        <div>
          <SubmitButton pending={fetcher.state !== 'idle'} pendingLabel="変更しています…">
            パスワードを変更する
          </SubmitButton>
        </div>
      </fetcher.Form>
    </Section>
  )
}
