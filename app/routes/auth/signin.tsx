import { useRef } from 'react'
import { Form, Link, redirect, useSearchParams } from 'react-router'
import {
  AuthFootnote,
  AuthHeading,
  GoogleSignIn,
  linkClass,
  NeedsJavaScript,
} from '#app/components/auth-screen.tsx'
import {
  CodeField,
  FormMessage,
  PasswordField,
  SubmitButton,
  TextField,
  useFocusOnErrors,
} from '#app/components/forms.tsx'
import { TotpSetup } from '#app/components/totp-setup.tsx'
import {
  errorResult,
  type FormResult,
  fieldErrors,
  formString,
  safeRedirect,
} from '#app/lib/auth/flow.ts'
import { type AuthModule, loadAuth } from '#app/lib/auth/load-auth.ts'
import { type MfaMethod, type SignInStep, signInStepOf } from '#app/lib/auth/sign-in-steps.ts'
import { useSubmitting } from '#app/lib/auth/use-submitting.ts'
import { codeError, emailError, newPasswordError, normalizeCode } from '#app/lib/auth/validation.ts'
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

/** The name authenticator apps show beside the six-digit code. */
const TOTP_ISSUER = 'テックラボ'

export async function clientAction({ request }: Route.ClientActionArgs): Promise<SignInResult> {
  const form = await request.formData()
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'))
  const auth = await loadAuth()
  const username = formString(form, 'username').trim()

  if (formString(form, 'intent') === 'signIn') {
    const password = formString(form, 'password')
    const invalid = fieldErrors({
      username: username ? undefined : 'ユーザー名またはメールアドレスを入力してください。',
      password: password ? undefined : 'パスワードを入力してください。',
    })
    if (invalid) return invalid
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

/** The step the form was showing, from its hidden field; nothing usable gives undefined. */
function parseStep(text: string): SignInStep | undefined {
  try {
    const step = JSON.parse(text) as SignInStep | null
    return step && typeof step === 'object' && typeof step.kind === 'string' ? step : undefined
  } catch {
    return undefined
  }
}

function challengeAnswer(
  step: SignInStep,
  form: FormData,
): { value: string } | { errors: Record<string, string> } {
  switch (step.kind) {
    case 'newPassword': {
      const password = formString(form, 'newPassword')
      const error = newPasswordError(password)
      if (error) return { errors: { newPassword: error } }
      if (password !== formString(form, 'confirmation')) {
        return { errors: { confirmation: '確認用のパスワードが一致しません。' } }
      }
      return { value: password }
    }
    case 'selectMfa':
    case 'selectMfaSetup': {
      const method = formString(form, 'method') as MfaMethod
      if (!step.options.includes(method)) return { errors: { method: '方法を選んでください。' } }
      return { value: method }
    }
    case 'emailSetup': {
      const email = formString(form, 'email').trim()
      const error = emailError(email)
      return error ? { errors: { email: error } } : { value: email }
    }
    case 'customChallenge': {
      const code = normalizeCode(formString(form, 'code'))
      return code ? { value: code } : { errors: { code: 'コードを入力してください。' } }
    }
    default: {
      const code = normalizeCode(formString(form, 'code'))
      // Codes sent by mail may be longer (Amazon Cognito's email codes have 8 digits).
      const mailed = step.kind === 'code' && step.method === 'EMAIL' && /^\d{6,8}$/.test(code)
      const error = mailed ? undefined : codeError(code)
      return error ? { errors: { code: error } } : { value: code }
    }
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

const METHOD_LABELS: Record<MfaMethod, { title: string; body: string }> = {
  TOTP: { title: '認証アプリ', body: 'Google Authenticator などのアプリに表示される6桁のコード' },
  EMAIL: { title: 'メール', body: '登録したメールアドレスに届く6桁のコード' },
  SMS: { title: 'SMS', body: '登録した電話番号に届く6桁のコード' },
}

/** The second step of a sign-in: a code, a new password, or setting up a second factor. */
function ChallengeScreen(props: { step: SignInStep; username: string; result: SignInResult }) {
  const { step, username, result } = props
  const submitting = useSubmitting('challenge')
  const formRef = useRef<HTMLFormElement>(null)
  const messageRef = useRef<HTMLDivElement>(null)
  useFocusOnErrors(result, formRef, messageRef)
  const errors = result.errors ?? {}
  const copy = challengeCopy(step)

  return (
    <>
      <AuthHeading title={copy.title}>{copy.body}</AuthHeading>
      <Form method="post" noValidate ref={formRef} className="flex flex-col gap-3">
        <input type="hidden" name="step" value={JSON.stringify(step)} />
        <input type="hidden" name="username" value={username} />
        {result.formError && (
          <FormMessage tone="error" focusRef={messageRef}>
            {result.formError}
          </FormMessage>
        )}
        {step.kind === 'totpSetup' && <TotpSetup uri={step.uri} secret={step.secret} />}
        {(step.kind === 'code' || step.kind === 'totpSetup' || step.kind === 'customChallenge') && (
          <CodeField
            label={
              step.kind === 'customChallenge' || (step.kind === 'code' && step.method === 'EMAIL')
                ? 'コード'
                : '6桁のコード'
            }
            name="code"
            required
            autoFocus
            error={errors.code}
          />
        )}
        {step.kind === 'newPassword' && (
          <>
            <PasswordField
              label="新しいパスワード"
              name="newPassword"
              autoComplete="new-password"
              required
              checklist
              error={errors.newPassword}
            />
            <PasswordField
              label="新しいパスワード（確認用）"
              name="confirmation"
              autoComplete="new-password"
              required
              error={errors.confirmation}
            />
          </>
        )}
        {step.kind === 'emailSetup' && (
          <TextField
            label="メールアドレス"
            name="email"
            type="email"
            autoComplete="email"
            required
            error={errors.email}
          />
        )}
        {(step.kind === 'selectMfa' || step.kind === 'selectMfaSetup') && (
          <fieldset aria-describedby={errors.method ? 'method-error' : undefined}>
            <legend className="text-sm font-semibold">コードを受け取る方法</legend>
            <div className="mt-2 flex flex-col gap-2">
              {step.options.map((method, index) => (
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
              {errors.method}
            </p>
          </fieldset>
        )}
        <SubmitButton
          pending={submitting}
          pendingLabel="確認しています…"
          name="intent"
          value="challenge"
          className="mt-1 w-full"
        >
          {copy.submit}
        </SubmitButton>
      </Form>
      <AuthFootnote>
        <Link to="/auth/signin" reloadDocument className={linkClass}>
          最初からログインし直す
        </Link>
      </AuthFootnote>
    </>
  )
}

function challengeCopy(step: SignInStep): { title: string; body: string; submit: string } {
  switch (step.kind) {
    case 'code':
      if (step.method === 'TOTP') {
        return {
          title: '認証アプリのコード',
          body: '二段階認証が有効です。認証アプリ（Google Authenticator など）に表示されている6桁のコードを入力してください。',
          submit: 'ログイン',
        }
      }
      return {
        title: step.method === 'SMS' ? 'SMS のコード' : 'メールのコード',
        body: `${step.destination ? `${step.destination} に` : ''}確認コードをお送りしました。届いたコードを入力してください。`,
        submit: 'ログイン',
      }
    case 'newPassword':
      return {
        title: '新しいパスワードの設定',
        body: 'はじめてのログインのため、ご自分で決めたパスワードに変更してください。',
        submit: 'パスワードを設定してログイン',
      }
    case 'selectMfa':
      return {
        title: '確認の方法を選んでください',
        body: 'このアカウントには二段階認証が設定されています。コードを受け取る方法を選んでください。',
        submit: '次へ',
      }
    case 'selectMfaSetup':
      return {
        title: '二段階認証の設定',
        body: 'このサイトでは二段階認証の設定が必要です。使う方法を選んでください。',
        submit: '次へ',
      }
    case 'totpSetup':
      return {
        title: '認証アプリの登録',
        body: '認証アプリ（Google Authenticator、Microsoft Authenticator など）で QR コードを読み取り、表示された6桁のコードを入力してください。',
        submit: '登録してログイン',
      }
    case 'emailSetup':
      return {
        title: 'メールによる二段階認証の設定',
        body: 'ログインのときに確認コードを受け取るメールアドレスを入力してください。',
        submit: '次へ',
      }
    case 'customChallenge':
      return {
        title: '追加の確認',
        body: 'メールでお送りしたコードを入力してください。',
        submit: 'ログイン',
      }
    default:
      return { title: 'ログイン', body: '', submit: 'ログイン' }
  }
}
