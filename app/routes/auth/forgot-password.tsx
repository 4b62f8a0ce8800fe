import { useRef } from 'react'
import { Form, Link, redirect, useSearchParams } from 'react-router'
import { z } from 'zod'
import {
  AuthFootnote,
  AuthHeading,
  linkClass,
  NeedsJavaScript,
} from '#app/components/auth-screen.tsx'
import { FormMessage, SubmitButton, TextField, useFocusOnErrors } from '#app/components/forms.tsx'
import { errorResult, type FormResult, parseForm } from '#app/lib/auth/flow.ts'
import { loadAuth } from '#app/lib/auth/load-auth.ts'
import { useSubmitting } from '#app/lib/auth/use-submitting.ts'
import { signInNameSchema } from '#app/lib/auth/validation.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { query } from '#app/lib/query-string.ts'
import type { Route } from './+types/forgot-password'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'パスワードの再設定',
    description: '登録したメールアドレスに、パスワード再設定用のコードをお送りします。',
  })

export async function clientAction({ request }: Route.ClientActionArgs): Promise<FormResult> {
  const parsed = parseForm(z.object({ username: signInNameSchema }), await request.formData())
  if ('result' in parsed) return parsed.result
  const { username } = parsed.data
  const auth = await loadAuth()
  try {
    const result = await auth.resetPassword({ username })
    if (result.nextStep.resetPasswordStep === 'DONE') {
      throw redirect(`/auth/signin${query({ username, reset: '1' })}`)
    }
    const destination = result.nextStep.codeDeliveryDetails.destination
    throw redirect(`/auth/forgotPasswordVerify${query({ username, destination })}`)
  } catch (error) {
    if (error instanceof Response) throw error
    return errorResult(error, 'forgotPassword')
  }
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams()
  const submitting = useSubmitting()
  const formRef = useRef<HTMLFormElement>(null)
  const messageRef = useRef<HTMLDivElement>(null)
  useFocusOnErrors(actionData, formRef, messageRef)
  const required = searchParams.get('required') === '1'

  return (
    <>
      <AuthHeading title="パスワードをお忘れの方">
        登録したユーザー名またはメールアドレスを入力してください。パスワードを再設定するための6桁のコードを、登録したメールアドレスにお送りします。
      </AuthHeading>
      <NeedsJavaScript />
      <Form method="post" noValidate ref={formRef} className="flex flex-col gap-3">
        {required && !actionData && (
          <FormMessage tone="info">
            このアカウントは、パスワードの再設定が必要です。コードを受け取って、新しいパスワードを決めてください。
          </FormMessage>
        )}
        {actionData?.formError && (
          <FormMessage tone="error" focusRef={messageRef}>
            {actionData.formError}
          </FormMessage>
        )}
        <TextField
          label="ユーザー名またはメールアドレス"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          required
          defaultValue={searchParams.get('username') ?? ''}
          error={actionData?.errors?.username}
        />
        <SubmitButton pending={submitting} pendingLabel="送っています…" className="mt-1 w-full">
          コードを送る
        </SubmitButton>
      </Form>
      <AuthFootnote>
        <Link to="/auth/signin" className={linkClass}>
          ログイン画面に戻る
        </Link>
        <span className="mt-2 block">
          コードをお持ちの方は{' '}
          <Link to="/auth/forgotPasswordVerify" className={linkClass}>
            新しいパスワードを設定
          </Link>
        </span>
      </AuthFootnote>
    </>
  )
}
