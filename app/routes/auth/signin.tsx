import { useRef } from 'react'
import { Form, Link, redirect, useSearchParams } from 'react-router'
import { z } from 'zod'
import { ChallengeScreen } from '#app/components/auth/challenge-screen.tsx'
import {
  AuthFootnote,
  AuthHeading,
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
import {
  errorResult,
  type FormResult,
  formString,
  parseForm,
  safeRedirect,
} from '#app/lib/auth/flow.ts'
import { type AuthModule, loadAuth } from '#app/lib/auth/load-auth.ts'
import {
  challengeAnswer,
  parseStep,
  type SignInStep,
  signInStepOf,
} from '#app/lib/auth/sign-in-steps.ts'
import { useSubmitting } from '#app/lib/auth/use-submitting.ts'
import { signInNameSchema } from '#app/lib/auth/validation.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { query } from '#app/lib/query-string.ts'
import type { Route } from './+types/signin'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'ログイン',
    description: 'ユーザー名またはメールアドレスとパスワードでログインします。',
  })

export async function loader({ context, request }: Route.LoaderArgs) {
  if (await context.auth.currentUser(request)) {
    throw redirect(safeRedirect(new URL(request.url).searchParams.get('redirectTo')))
  }
  return null
}

type SignInResult = FormResult & { step?: SignInStep; username?: string }

const signInForm = z.object({
  username: signInNameSchema,
  password: z.string().min(1, 'パスワードを入力してください。'),
})

/** The name authenticator apps show beside the six-digit code. */
const TOTP_ISSUER = 'テックラボ'

export async function clientAction({ request }: Route.ClientActionArgs): Promise<SignInResult> {
  const form = await request.formData()
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'))
  const auth = await loadAuth()
  const username = formString(form, 'username').trim()

  if (formString(form, 'intent') === 'signIn') {
    const parsed = parseForm(signInForm, form)
    if ('result' in parsed) return parsed.result
    const { password } = parsed.data
    try {
      const output = await signInAfresh(auth, username, password)
      return await nextScreen(auth, signInStepOf(output.nextStep, username, TOTP_ISSUER), {
        username,
        redirectTo,
      })
    } catch (error) {
      if (error instanceof Response) throw error
      return errorResult(error, 'signIn')
    }
  }

  // Answering a challenge: the step the form was showing says what the answer is.
  const step = parseStep(formString(form, 'step'))
  if (!step) return {}
  const answer = challengeAnswer(step, form)
  if ('errors' in answer) return { ...answer, step, username }
  try {
    const output = await auth.confirmSignIn({ challengeResponse: answer.value })
    return await nextScreen(auth, signInStepOf(output.nextStep, username, TOTP_ISSUER), {
      username,
      redirectTo,
    })
  } catch (error) {
    if (error instanceof Response) throw error
    return { ...errorResult(error, 'confirmSignIn'), step, username }
  }
}

/** Signs in; a stale session left in the cookies is signed out first. */
async function signInAfresh(auth: AuthModule, username: string, password: string) {
  try {
    return await auth.signIn({ username, password })
  } catch (error) {
    if ((error as { name?: string }).name !== 'UserAlreadyAuthenticatedException') throw error
    await auth.signOut()
    return await auth.signIn({ username, password })
  }
}

async function nextScreen(
  auth: AuthModule,
  step: SignInStep,
  context: { username: string; redirectTo: string },
): Promise<SignInResult> {
  const { username, redirectTo } = context
  switch (step.kind) {
    case 'done':
      throw redirect(redirectTo)
    case 'confirmSignUp': {
      // The account exists but was never confirmed: send a fresh code and ask for it.
      let destination: string | undefined
      try {
        destination = (await auth.resendSignUpCode({ username })).destination
      } catch {
        // The confirm screen can resend too.
      }
      throw redirect(`/auth/confirm${query({ username, destination, from: 'signin', redirectTo })}`)
    }
    case 'resetPassword':
      throw redirect(`/auth/forgotPassword${query({ username, required: '1' })}`)
    case 'unsupported':
      return {
        formError:
          'このアカウントのログイン方法には、まだこの画面が対応していません。お手数ですが、お問い合わせください。',
      }
    default:
      return { step, username }
  }
}

export default function SignIn({ actionData }: Route.ComponentProps) {
  const step = actionData?.step
  return step && actionData.username !== undefined ? (
    <ChallengeScreen step={step} username={actionData.username} result={actionData} />
  ) : (
    <PasswordScreen result={actionData} />
  )
}

function PasswordScreen({ result }: { result: SignInResult | undefined }) {
  const [searchParams] = useSearchParams()
  const submitting = useSubmitting('signIn')
  const formRef = useRef<HTMLFormElement>(null)
  const messageRef = useRef<HTMLDivElement>(null)
  useFocusOnErrors(result, formRef, messageRef)
  const errors = result?.errors ?? {}
  const redirectTo = safeRedirect(searchParams.get('redirectTo'), '')
  const notice = noticeFor(searchParams)

  return (
    <>
      <AuthHeading title="ログイン">
        {redirectTo
          ? 'このページを見るには、ログインしてください。'
          : 'メールアドレスかユーザー名とパスワードでログインします。'}
      </AuthHeading>
      <NeedsJavaScript />
      <GoogleSignIn label="Google でログイン" />
      <Form method="post" noValidate ref={formRef} className="flex flex-col gap-3">
        {notice && !result && <FormMessage tone="success">{notice}</FormMessage>}
        {result?.formError && (
          <FormMessage tone="error" focusRef={messageRef}>
            {result.formError}
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
          error={errors.username}
        />
        <PasswordField
          label="パスワード"
          name="password"
          autoComplete="current-password"
          required
          error={errors.password}
        />
        <p className="-mt-2 text-right text-sm">
          <Link
            to={`/auth/forgotPassword${query({ username: searchParams.get('username') })}`}
            className={linkClass}
          >
            パスワードをお忘れの方
          </Link>
        </p>
        <SubmitButton
          pending={submitting}
          pendingLabel="ログインしています…"
          name="intent"
          value="signIn"
          className="mt-1 w-full"
        >
          ログイン
        </SubmitButton>
      </Form>
      <AuthFootnote>
        アカウントをお持ちでない方は{' '}
        <Link to={`/auth/signup${query({ redirectTo })}`} className={linkClass}>
          無料で新規登録
        </Link>
      </AuthFootnote>
    </>
  )
}

function noticeFor(searchParams: URLSearchParams): string | undefined {
  if (searchParams.get('confirmed'))
    return '登録が完了しました。パスワードを入力してログインしてください。'
  if (searchParams.get('registered')) return '登録が完了しました。ログインしてください。'
  if (searchParams.get('reset'))
    return '新しいパスワードを設定しました。すべての端末でログインが終了したので、新しいパスワードでログインしてください。'
  if (searchParams.get('signedOut') === 'all') return 'すべての端末からログアウトしました。'
  if (searchParams.get('signedOut') === 'device')
    return 'このデバイスを記憶から削除し、ログアウトしました。'
  if (searchParams.get('signedOut')) return 'ログアウトしました。'
  if (searchParams.get('deleted'))
    return 'アカウントを削除しました。これまでのご利用ありがとうございました。'
  if (searchParams.get('expired'))
    return 'ログインの有効期限が切れました。もう一度ログインしてください。'
  return undefined
}
