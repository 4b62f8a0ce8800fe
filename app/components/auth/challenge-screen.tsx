import { useRef } from 'react'
import { Form, Link } from 'react-router'
import { NewPasswordFields } from '#app/components/auth/new-password-fields.tsx'
import { AuthFootnote, AuthHeading, linkClass } from '#app/components/auth-screen.tsx'
import {
  CodeField,
  FormMessage,
  SubmitButton,
  TextField,
  useFocusOnErrors,
} from '#app/components/forms.tsx'
import { TotpSetup } from '#app/components/totp-setup.tsx'
import type { FormResult } from '#app/lib/auth/flow.ts'
import type { SignInStep } from '#app/lib/auth/sign-in-steps.ts'
import { useSubmitting } from '#app/lib/auth/use-submitting.ts'
import { MfaMethodChoice } from './mfa-method-choice.tsx'

/** The second step of a sign-in: a code, a new password, or setting up a second factor. */
export function ChallengeScreen(props: { step: SignInStep; username: string; result: FormResult }) {
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
        {step.kind === 'newPassword' && <NewPasswordFields errors={errors} />}
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
          <MfaMethodChoice options={step.options} error={errors.method} />
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
