/**
 * Every error the auth screens can meet (Amplify's own checks, the user pool's Cognito
 * errors, the network), turned into a short Japanese sentence and, where one field is to
 * blame, the name of that field. The one place that decides what people read.
 */
export type AuthField =
  | 'username'
  | 'email'
  | 'password'
  | 'newPassword'
  | 'oldPassword'
  | 'code'
  | 'confirmation'

/**
 * `emailInUse`: the screen also offers the ways into the account that has the address
 * (sign in, reset the password).
 */
export type AuthErrorMessage = { message: string; field?: AuthField; help?: 'emailInUse' }

const EMAIL_IN_USE: AuthErrorMessage = {
  field: 'email',
  message:
    'このメールアドレスはすでに登録されています。ログインするか、パスワードを忘れた場合は再設定してください。',
  help: 'emailInUse',
}

/** What the person was doing: the same error name can mean different things. */
export type AuthAction =
  | 'signIn'
  | 'signUp'
  | 'confirmSignUp'
  | 'resendCode'
  | 'confirmSignIn'
  | 'forgotPassword'
  | 'confirmForgotPassword'
  | 'changePassword'
  | 'deleteAccount'
  | 'signOut'
  | 'mfaSetup'
  | 'other'

const TRY_LATER = 'しばらく時間をおいてから、もう一度お試しください。'

export const GENERIC_AUTH_ERROR = `問題が発生したため、処理を完了できませんでした。${TRY_LATER}`

const NETWORK_ERROR =
  'サーバーと通信できませんでした。インターネット接続を確認して、もう一度お試しください。'

const SESSION_ENDED = 'ログインの有効期限が切れました。お手数ですが、もう一度ログインしてください。'

const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff]/

export function authErrorMessage(error: unknown, action: AuthAction = 'other'): AuthErrorMessage {
  const { name, message } = describe(error)

  // The server may explain a refusal itself, in Japanese (a username that is taken or
  // reserved, for example): show its words.
  if (JAPANESE.test(message)) {
    const field = authErrorMessage({ name, message: '' }, action).field ?? fieldNamedIn(message)
    return { message, ...(field && { field }) }
  }

  switch (name) {
    case 'NetworkError':
    case 'TimeoutError':
    case 'AbortError':
      return { message: NETWORK_ERROR }

    case 'NotAuthorizedException':
      return notAuthorized(message, action)
    case 'UserNotFoundException':
      if (action === 'forgotPassword') {
        return {
          field: 'username',
          message: 'このユーザー名またはメールアドレスのアカウントは見つかりませんでした。',
        }
      }
      if (action === 'confirmSignUp' || action === 'resendCode') {
        return { field: 'username', message: 'このユーザー名のアカウントは見つかりませんでした。' }
      }
      return wrongCredentials(action)
    case 'UserNotConfirmedException':
      return {
        message:
          'メールアドレスの確認が済んでいません。メールで届いた確認コードを入力してください。',
      }
    case 'PasswordResetRequiredException':
      return {
        message: 'パスワードの再設定が必要です。「パスワードをお忘れの方」から再設定してください。',
      }
    case 'UserAlreadyAuthenticatedException':
      return { message: 'すでにログインしています。' }
    case 'UserUnAuthenticatedException':
      return { message: SESSION_ENDED }

    case 'UsernameExistsException':
      // The pool says so when the email, not the name, is taken (PreventUserExistenceErrors off).
      if (/email/i.test(message)) return EMAIL_IN_USE
      return {
        field: 'username',
        message: 'このユーザー名はすでに使われています。別の名前にしてください。',
      }
    case 'AliasExistsException':
      return EMAIL_IN_USE
    case 'InvalidPasswordException':
      return {
        field:
          action === 'changePassword' ||
          action === 'confirmForgotPassword' ||
          action === 'confirmSignIn'
            ? 'newPassword'
            : 'password',
        message:
          'パスワードが条件を満たしていません。8文字以上で、英大文字・英小文字・数字・記号をそれぞれ1つ以上含めてください。',
      }
    case 'InvalidParameterException':
      return invalidParameter(message, action)

    case 'CodeMismatchException':
    case 'EnableSoftwareTokenMFAException':
      return {
        field: 'code',
        message: 'コードが正しくありません。もう一度確認して入力してください。',
      }
    case 'ExpiredCodeException':
      if (/already been used/i.test(message)) {
        return {
          field: 'code',
          message:
            'このコードはすでに使われています。認証アプリに次のコードが表示されるまで待ってから、新しいコードを入力してください。',
        }
      }
      return {
        field: 'code',
        message:
          action === 'confirmSignIn'
            ? 'コードの有効期限が切れました。最初からログインし直してください。'
            : 'コードの有効期限が切れています。新しいコードを送ってから、もう一度入力してください。',
      }
    case 'CodeDeliveryFailureException':
      return {
        message: `確認コードのメールを送れませんでした。メールアドレスを確認するか、${TRY_LATER}`,
      }

    case 'LimitExceededException':
    case 'TooManyRequestsException':
    case 'TooManyFailedAttemptsException':
      return { message: `短い時間に何度も試したため、一時的に受け付けを止めています。${TRY_LATER}` }

    case 'SoftwareTokenMFANotFoundException':
      return { message: '認証アプリがまだ登録されていません。設定画面から登録してください。' }
    case 'MFAMethodNotFoundException':
      return { message: '使える二段階認証の方法が見つかりません。' }

    case 'EmptySignInUsername':
    case 'EmptySignUpUsername':
    case 'EmptyConfirmSignUpUsername':
    case 'EmptyresendSignUpCodeUsername':
    case 'EmptyResetPasswordUsername':
    case 'EmptyConfirmResetPasswordUsername':
      return {
        field: 'username',
        message:
          action === 'signIn' || action === 'forgotPassword'
            ? 'ユーザー名またはメールアドレスを入力してください。'
            : 'ユーザー名を入力してください。',
      }
    case 'EmptySignInPassword':
    case 'EmptySignUpPassword':
      return { field: 'password', message: 'パスワードを入力してください。' }
    case 'EmptyConfirmResetPasswordNewPassword':
    case 'EmptyUpdatePassword':
      return { field: 'newPassword', message: '新しいパスワードを入力してください。' }
    case 'EmptyConfirmSignUpCode':
    case 'EmptyConfirmResetPasswordConfirmationCode':
    case 'EmptyVerifyTOTPSetupCode':
    case 'EmptyConfirmUserAttributeCode':
    case 'EmptyChallengeResponse':
      return { field: 'code', message: 'コードを入力してください。' }

    case 'DeviceMetadataNotFoundException':
      return {
        message:
          'この端末の情報が見つかりません。いったんログアウトし、もう一度ログインしてからお試しください。',
      }
    case 'ResourceNotFoundException':
      if (/device/i.test(message)) {
        return { message: 'この端末はすでに削除されています。一覧を読み込み直してください。' }
      }
      return { message: `サーバー側で問題が起きています。${TRY_LATER}` }
    case 'SignInException':
    case 'InvalidUserPoolConfigurationException':
    case 'InvalidLambdaResponseException':
    case 'UnexpectedLambdaException':
    case 'InternalErrorException':
    case 'InternalServerError':
    case 'ServiceUnavailable':
      return { message: `サーバー側で問題が起きています。${TRY_LATER}` }
    case 'UserLambdaValidationException':
      return { message: '入力内容を受け付けられませんでした。内容を確認してください。' }
  }
  if (/network error|failed to fetch|load failed/i.test(message)) return { message: NETWORK_ERROR }
  return { message: GENERIC_AUTH_ERROR }
}

function notAuthorized(message: string, action: AuthAction): AuthErrorMessage {
  if (/attempts exceeded/i.test(message)) {
    return {
      message:
        'パスワードの入力に続けて失敗したため、このアカウントへのログインを一時的に止めています。しばらく待ってから、もう一度お試しください。',
    }
  }
  if (/disabled/i.test(message)) {
    return { message: 'このアカウントは現在利用できません。お問い合わせください。' }
  }
  if (/revoked|expired|invalid session|session is expired|token/i.test(message)) {
    if (action === 'confirmSignIn') {
      return {
        message:
          '時間が経ちすぎたため、確認を完了できませんでした。最初からログインし直してください。',
      }
    }
    return { message: SESSION_ENDED }
  }
  if (/current status is confirmed/i.test(message)) {
    return { message: 'このアカウントはすでに確認済みです。ログインしてください。' }
  }
  if (action === 'changePassword') {
    return { field: 'oldPassword', message: '現在のパスワードが正しくありません。' }
  }
  if (action === 'confirmSignUp' || action === 'resendCode') {
    return { message: 'このアカウントでは確認コードを使えません。ログインをお試しください。' }
  }
  return wrongCredentials(action)
}

function wrongCredentials(action: AuthAction): AuthErrorMessage {
  if (action === 'signIn') {
    return {
      field: 'password',
      message: 'ユーザー名（またはメールアドレス）かパスワードが正しくありません。',
    }
  }
  return { message: SESSION_ENDED }
}

function invalidParameter(message: string, action: AuthAction): AuthErrorMessage {
  if (/email/i.test(message)) {
    return { field: 'email', message: 'メールアドレスの形式が正しくありません。' }
  }
  if (/password/i.test(message)) {
    return {
      field:
        action === 'changePassword' || action === 'confirmForgotPassword'
          ? 'newPassword'
          : 'password',
      message:
        'パスワードが条件を満たしていません。8文字以上で、英大文字・英小文字・数字・記号をそれぞれ1つ以上含めてください。',
    }
  }
  if (/username/i.test(message)) {
    return {
      field: 'username',
      message: 'ユーザー名は半角の英小文字・数字・アンダースコア（_）で、3〜20文字にしてください。',
    }
  }
  if (/code/i.test(message)) return { field: 'code', message: 'コードの形式が正しくありません。' }
  return { message: '入力内容に誤りがあります。確認して、もう一度お試しください。' }
}

function fieldNamedIn(message: string): AuthField | undefined {
  if (/ユーザー名/.test(message)) return 'username'
  if (/メールアドレス/.test(message)) return 'email'
  if (/パスワード/.test(message)) return 'password'
  if (/コード/.test(message)) return 'code'
  return undefined
}

function describe(error: unknown): { name: string; message: string } {
  if (error instanceof Error || (typeof error === 'object' && error !== null)) {
    const { name, message } = error as { name?: unknown; message?: unknown }
    return {
      name: typeof name === 'string' ? name : '',
      message: typeof message === 'string' ? message : '',
    }
  }
  return { name: '', message: typeof error === 'string' ? error : '' }
}
