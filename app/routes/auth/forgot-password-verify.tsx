import { useRef } from 'react'
import { Form, Link, redirect, useSearchParams } from 'react-router'
import { z } from 'zod'
import { NewPasswordFields } from '#app/components/auth/new-password-fields.tsx'
import {
  AuthFootnote,
  AuthHeading,
  DevMailboxNote,
  linkClass,
  NeedsJavaScript,
} from '#app/components/auth-screen.tsx'
import {
  CodeField,
  FormMessage,
  SubmitButton,
  TextField,
  useFocusOnErrors,
} from '#app/components/forms.tsx'
import { errorResult, type FormResult, parseForm } from '#app/lib/auth/flow.ts'
import { loadAuth } from '#app/lib/auth/load-auth.ts'
import { useSubmitting } from '#app/lib/auth/use-submitting.ts'
import { codeSchema, newPasswordPair, signInNameSchema } from '#app/lib/auth/validation.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { query } from '#app/lib/query-string.ts'
import type { Route } from './+types/forgot-password-verify'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: '新しいパスワードの設定',
    description: 'メールで届いたコードと新しいパスワードを入力します。',
  })

const resetForm = newPasswordPair.and(z.object({ username: signInNameSchema, code: codeSchema }))

export async function clientAction({ request }: Route.ClientActionArgs): Promise<FormResult> {
  const parsed = parseForm(resetForm, await request.formData())
  if ('result' in parsed) return parsed.result
  const { username, code, newPassword } = parsed.data
  const auth = await loadAuth()
  try {
    await auth.confirmResetPassword({ username, confirmationCode: code, newPassword })
  } catch (error) {
    return errorResult(error, 'confirmForgotPassword')
  }
  throw redirect(`/auth/signin${query({ username, reset: '1' })}`)
}

export default function ForgotPasswordVerify({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams()
  const username = searchParams.get('username') ?? ''
  const destination = searchParams.get('destination')
  const submitting = useSubmitting()
  const formRef = useRef<HTMLFormElement>(null)
  const messageRef = useRef<HTMLDivElement>(null)
  useFocusOnErrors(actionData, formRef, messageRef)
  const errors = actionData?.errors ?? {}

  return (
    <>
      <AuthHeading title="新しいパスワードの設定">
        {destination ? (
          <p>
            <strong className="font-semibold text-slate-900 dark:text-slate-100">
              {destination}
            </strong>{' '}
            に6桁のコードをお送りしました。コードと新しいパスワードを入力してください。
          </p>
        ) : (
          <p>メールで届いた6桁のコードと、新しいパスワードを入力してください。</p>
        )}
      </AuthHeading>
      <NeedsJavaScript />
      <DevMailboxNote />
      <Form method="post" noValidate ref={formRef} className="flex flex-col gap-3">
        {actionData?.formError && (
          <FormMessage tone="error" focusRef={messageRef}>
            {actionData.formError}
          </FormMessage>
        )}
        {username ? (
          <p className="text-sm">
            アカウント: <strong className="font-semibold">{username}</strong>
            <input type="hidden" name="username" value={username} />
          </p>
        ) : (
          <TextField
            label="ユーザー名またはメールアドレス"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            error={errors.username}
          />
        )}
        <CodeField label="確認コード（6桁）" name="code" required error={errors.code} />
        <NewPasswordFields errors={errors} />
        <SubmitButton pending={submitting} pendingLabel="設定しています…" className="mt-1 w-full">
          パスワードを設定する
        </SubmitButton>
      </Form>
      <AuthFootnote>
        コードが届かないときや期限が切れたときは{' '}
        <Link to={`/auth/forgotPassword${query({ username })}`} className={linkClass}>
          コードを送り直す
        </Link>
      </AuthFootnote>
    </>
  )
}
