import { useRef } from 'react'
import { Form, Link, redirect, useSearchParams } from 'react-router'
import { z } from 'zod'
import {
  AuthFootnote,
  AuthHeading,
  DevMailboxNote,
  EmailInUseLinks,
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
import {
  errorResult,
  type FormResult,
  formString,
  parseForm,
  safeRedirect,
} from '#app/lib/auth/flow.ts'
import { type AuthModule, loadAuth } from '#app/lib/auth/load-auth.ts'
import { useSubmitting } from '#app/lib/auth/use-submitting.ts'
import { codeSchema } from '#app/lib/auth/validation.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { query } from '#app/lib/query-string.ts'
import { useIdentitySettings } from '#app/lib/root-data.ts'
import type { Route } from './+types/confirm'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'メールアドレスの確認',
    description: 'メールで届いた確認コードを入力して、登録を完了します。',
  })

type ConfirmResult = FormResult & { resentTo?: string }

const confirmForm = z.object({
  username: z.string().trim().min(1, 'ユーザー名を入力してください。'),
  code: codeSchema,
})

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ConfirmResult> {
  const form = await request.formData()
  const username = formString(form, 'username').trim()
  const intent = formString(form, 'intent')
  const usernameMissing = username === '' ? 'ユーザー名を入力してください。' : undefined
  const auth = await loadAuth()

  if (intent === 'resend') {
    if (usernameMissing) return { errors: { username: usernameMissing } }
    try {
      const result = await auth.resendSignUpCode({ username })
      const to = result.destination
      return {
        resentTo: to ?? '',
        notice: to
          ? `新しい確認コードを ${to} にお送りしました。前に届いたコードは使えなくなります。`
          : '新しい確認コードをお送りしました。前に届いたコードは使えなくなります。',
      }
    } catch (error) {
      return errorResult(error, 'resendCode')
    }
  }

  const parsed = parseForm(confirmForm, form)
  if ('result' in parsed) return parsed.result
  const { code } = parsed.data
  let confirmed: Awaited<ReturnType<typeof auth.confirmSignUp>>
  try {
    confirmed = await auth.confirmSignUp({ username, confirmationCode: code })
  } catch (error) {
    const result = errorResult(error, 'confirmSignUp')
    // The address is another account's (AliasExistsException): no email field here to carry it.
    if (result.help) return { formError: result.errors?.email, help: result.help }
    // Already confirmed: nothing is wrong, the person only needs to sign in.
    if (/確認済み/.test(result.formError ?? '')) {
      throw redirect(`/auth/signin${query({ username, confirmed: '1' })}`)
    }
    return result
  }
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '')
  if (confirmed.nextStep.signUpStep === 'COMPLETE_AUTO_SIGN_IN' && (await autoSignedIn(auth))) {
    throw redirect(redirectTo || '/')
  }
  throw redirect(`/auth/signin${query({ username, confirmed: '1', redirectTo })}`)
}

/**
 * Signs in with the password given at sign-up (Amplify keeps it in memory from signUp in this
 * tab, so not after a reload or on another device). Anything short of a finished sign-in (an
 * MFA the pool requires, an error) leaves it to the sign-in screen.
 */
async function autoSignedIn(auth: AuthModule): Promise<boolean> {
  try {
    const output = await auth.autoSignIn()
    if (output.nextStep.signInStep === 'DONE') return true
  } catch {
    // The sign-in screen asks for the password.
  }
  return false
}

export default function Confirm({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams()
  const username = searchParams.get('username') ?? ''
  const destination = searchParams.get('destination')
  const fromSignIn = searchParams.get('from') === 'signin'
  const confirming = useSubmitting('confirm')
  const resending = useSubmitting('resend')
  const formRef = useRef<HTMLFormElement>(null)
  const messageRef = useRef<HTMLDivElement>(null)
  useFocusOnErrors(actionData, formRef, messageRef)
  const errors = actionData?.errors ?? {}
  // Only this site's user pool mails the owner of a taken address (docs/decisions/026).
  const embedded = useIdentitySettings().endpoints === 'embedded'

  return (
    <>
      <AuthHeading title="メールアドレスの確認">
        {fromSignIn ? (
          <p>登録がまだ完了していません。メールで届いた6桁の確認コードを入力してください。</p>
        ) : destination ? (
          <p>
            <strong className="font-semibold text-slate-900 dark:text-slate-100">
              {destination}
            </strong>{' '}
            に6桁の確認コードをお送りしました。メールに書かれたコードを入力してください。
          </p>
        ) : (
          <p>新規登録のときにメールでお送りした、6桁の確認コードを入力してください。</p>
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
        {actionData?.help === 'emailInUse' && <EmailInUseLinks />}
        {actionData?.notice && <FormMessage tone="success">{actionData.notice}</FormMessage>}
        {username ? (
          <p className="text-sm">
            ユーザー名: <strong className="font-semibold">{username}</strong>
            <input type="hidden" name="username" value={username} />
          </p>
        ) : (
          <TextField
            label="ユーザー名"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            error={errors.username}
          />
        )}
        <CodeField label="確認コード（6桁）" name="code" required error={errors.code} />
        <SubmitButton
          pending={confirming}
          pendingLabel="確認しています…"
          name="intent"
          value="confirm"
          className="w-full"
        >
          登録を完了する
        </SubmitButton>
        <div className="mt-4 rounded-lg bg-slate-50 px-4 py-3 text-sm dark:bg-slate-900">
          <p className="text-slate-700 dark:text-slate-300">
            メールが届かないときは、迷惑メールのフォルダも確認してください。コードの有効期限が切れたときも、新しいコードを送れます。
          </p>
          {embedded && (
            <p className="mt-2 text-slate-700 dark:text-slate-300">
              そのメールアドレスですでに登録している場合は、確認コードの代わりに、今のアカウントへのログイン方法をお知らせするメールが届きます。
            </p>
          )}
          <SubmitButton
            pending={resending}
            pendingLabel="送っています…"
            name="intent"
            value="resend"
            variant="secondary"
            className="mt-3 w-full text-sm"
          >
            確認コードを再送する
          </SubmitButton>
        </div>
      </Form>
      <AuthFootnote>
        <Link to="/auth/signup" className={linkClass}>
          新規登録からやり直す
        </Link>
      </AuthFootnote>
    </>
  )
}
