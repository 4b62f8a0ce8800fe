import { useRef } from 'react'
import { Form, Link, redirect, useSearchParams } from 'react-router'
import { z } from 'zod'
import {
  AuthFootnote,
  AuthHeading,
  EmailInUseLinks,
  GoogleSignIn,
  linkClass,
  NeedsJavaScript,
} from '#app/components/auth-screen.tsx'
import {
  FormMessage,
  PasswordField,
  SubmitButton,
  TextField,
  useFocusOnErrors,
} from '#app/components/forms.tsx'
import { errorResult, type FormResult, parseForm, safeRedirect } from '#app/lib/auth/flow.ts'
import { loadAuth } from '#app/lib/auth/load-auth.ts'
import { useSubmitting } from '#app/lib/auth/use-submitting.ts'
import { newPasswordSchema, USERNAME_RULE } from '#app/lib/auth/validation.ts'
import { fieldLimits } from '#app/lib/field-limits.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { query } from '#app/lib/query-string.ts'
import { emailSchema, usernameSchema } from '#features/users/account-input.ts'
import type { Route } from './+types/signup'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: '新規登録', description: '無料プランでアカウントを作成します。' })

export async function loader({ context, request }: Route.LoaderArgs) {
  if (await context.auth.currentUser(request)) {
    throw redirect(safeRedirect(new URL(request.url).searchParams.get('redirectTo')))
  }
  return null
}

type SignUpResult = FormResult & { email?: string }

const signUpForm = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: newPasswordSchema,
})

export async function clientAction({ request }: Route.ClientActionArgs): Promise<SignUpResult> {
  const parsed = parseForm(signUpForm, await request.formData())
  if ('result' in parsed) return parsed.result
  const { username, email, password } = parsed.data

  const auth = await loadAuth()
  try {
    const result = await auth.signUp({
      username,
      password,
      // Confirming the email then signs in with what was typed here, still in memory.
      options: { userAttributes: { email }, autoSignIn: true },
    })
    const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '')
    if (result.isSignUpComplete) {
      throw redirect(`/auth/signin${query({ username, registered: '1', redirectTo })}`)
    }
    const destination =
      result.nextStep.signUpStep === 'CONFIRM_SIGN_UP'
        ? result.nextStep.codeDeliveryDetails.destination
        : undefined
    throw redirect(`/auth/confirm${query({ username, destination, redirectTo })}`)
  } catch (error) {
    if (error instanceof Response) throw error
    return { ...errorResult(error, 'signUp'), email }
  }
}

export default function SignUp({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams()
  const submitting = useSubmitting()
  const formRef = useRef<HTMLFormElement>(null)
  const messageRef = useRef<HTMLDivElement>(null)
  useFocusOnErrors(actionData, formRef, messageRef)
  const errors = actionData?.errors ?? {}
  const redirectTo = safeRedirect(searchParams.get('redirectTo'), '')

  return (
    <>
      <AuthHeading title="無料で新規登録">
        アカウントを作ると、コースの進み具合の記録や演習、作品の投稿ができるようになります。
      </AuthHeading>
      <NeedsJavaScript />
      <GoogleSignIn label="Google で登録" />
      <Form method="post" noValidate ref={formRef} className="flex flex-col gap-3">
        {actionData?.formError && (
          <FormMessage tone="error" focusRef={messageRef}>
            {actionData.formError}
          </FormMessage>
        )}
        <TextField
          label="ユーザー名"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          required
          maxLength={fieldLimits(usernameSchema).maxLength}
          hint={USERNAME_RULE}
          error={errors.username}
        />
        <TextField
          label="メールアドレス"
          name="email"
          type="email"
          autoComplete="email"
          required
          hint="確認コードをこのアドレスにお送りします。"
          error={errors.email}
        />
        {actionData?.help === 'emailInUse' && (
          <EmailInUseLinks email={actionData.email} redirectTo={redirectTo} />
        )}
        <PasswordField
          label="パスワード"
          name="password"
          autoComplete="new-password"
          required
          checklist
          error={errors.password}
        />
        <p className="text-xs leading-relaxed text-slate-600 dark:text-slate-400">
          登録すると、
          <Link to="/terms" className={linkClass}>
            利用規約
          </Link>
          と
          <Link to="/privacy" className={linkClass}>
            プライバシーポリシー
          </Link>
          に同意したものとみなされます。
        </p>
        <SubmitButton pending={submitting} pendingLabel="登録しています…" className="mt-1 w-full">
          登録する
        </SubmitButton>
      </Form>
      <AuthFootnote>
        すでにアカウントをお持ちの方は{' '}
        <Link to={`/auth/signin${query({ redirectTo })}`} className={linkClass}>
          ログイン
        </Link>
        <span className="mt-2 block">
          確認コードをお持ちの方は{' '}
          <Link to={`/auth/confirm${query({ redirectTo })}`} className={linkClass}>
            コードを入力
          </Link>
        </span>
      </AuthFootnote>
    </>
  )
}
