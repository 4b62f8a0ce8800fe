import { describe, expect, it } from 'vitest'
import { authErrorMessage, GENERIC_AUTH_ERROR } from './errors.ts'

/** Errors as Amplify throws them: an Error whose name is the Cognito type or its own code. */
function failure(name: string, message = '') {
  const error = new Error(message)
  error.name = name
  return error
}

describe('auth error messages', () => {
  it.each([
    [
      'UsernameExistsException',
      'User already exists',
      'signUp',
      'username',
      'すでに使われています',
    ],
    [
      'ExpiredCodeException',
      'Your software token has already been used once.',
      'confirmSignIn',
      'code',
      '次のコードが表示されるまで待って',
    ],
    [
      'AliasExistsException',
      'An account with the given email already exists.',
      'signUp',
      'email',
      'すでに登録',
    ],
    [
      'InvalidPasswordException',
      'Password did not conform with policy',
      'signUp',
      'password',
      '8文字以上',
    ],
    [
      'InvalidPasswordException',
      'Password did not conform with policy',
      'changePassword',
      'newPassword',
      '8文字以上',
    ],
    [
      'CodeMismatchException',
      'Invalid verification code provided',
      'confirmSignUp',
      'code',
      'コードが正しくありません',
    ],
    [
      'ExpiredCodeException',
      'Invalid code provided, please request a code again.',
      'confirmSignUp',
      'code',
      '新しいコード',
    ],
    [
      'NotAuthorizedException',
      'Incorrect username or password.',
      'signIn',
      'password',
      'パスワードが正しくありません',
    ],
    [
      'NotAuthorizedException',
      'Incorrect username or password.',
      'changePassword',
      'oldPassword',
      '現在のパスワード',
    ],
    [
      'UserNotFoundException',
      'User does not exist.',
      'signIn',
      'password',
      'パスワードが正しくありません',
    ],
    [
      'EmptySignInUsername',
      'Username cannot be empty',
      'signIn',
      'username',
      'メールアドレスを入力',
    ],
    ['EmptySignUpPassword', 'Password cannot be empty', 'signUp', 'password', 'パスワードを入力'],
    [
      'EmptyConfirmSignUpCode',
      'Confirmation code cannot be empty',
      'confirmSignUp',
      'code',
      'コードを入力',
    ],
  ] as const)('%s (%s) while %s blames the %s field', (name, message, action, field, words) => {
    const result = authErrorMessage(failure(name, message), action)
    expect(result.field).toBe(field)
    expect(result.message).toContain(words)
  })

  it.each([
    ['UserNotConfirmedException', 'User is not confirmed.', '確認が済んでいません'],
    [
      'LimitExceededException',
      'Attempt limit exceeded, please try after some time.',
      'しばらく時間をおいて',
    ],
    ['TooManyRequestsException', 'Too many requests', 'しばらく時間をおいて'],
    ['NetworkError', 'Network Error', 'インターネット接続'],
    ['TypeError', 'Failed to fetch', 'インターネット接続'],
    ['UserAlreadyAuthenticatedException', 'There is already a signed in user.', 'すでにログイン'],
    ['PasswordResetRequiredException', 'Password reset required for the user', '再設定'],
    ['InternalErrorException', 'An internal error occurred.', 'サーバー側'],
    ['ResourceNotFoundException', 'Device does not exist.', 'すでに削除されています'],
    ['ResourceNotFoundException', 'User pool client x does not exist.', 'サーバー側'],
    [
      'DeviceMetadataNotFoundException',
      'Either deviceKey, deviceGroupKey or secretPassword were not found during the sign-in process.',
      'もう一度ログイン',
    ],
    ['CodeDeliveryFailureException', 'Unable to deliver', 'メールを送れませんでした'],
  ])('%s gets a message about the whole form', (name, message, words) => {
    const result = authErrorMessage(failure(name, message), 'signIn')
    expect(result.field).toBeUndefined()
    expect(result.message).toContain(words)
  })

  it('tells a lockout apart from a wrong password', () => {
    const result = authErrorMessage(
      failure('NotAuthorizedException', 'Password attempts exceeded'),
      'signIn',
    )
    expect(result.field).toBeUndefined()
    expect(result.message).toContain('一時的に止めています')
  })

  it('tells a revoked or expired session apart from a wrong password', () => {
    for (const message of ['Access Token has been revoked', 'Refresh Token has been revoked']) {
      expect(
        authErrorMessage(failure('NotAuthorizedException', message), 'deleteAccount').message,
      ).toContain('もう一度ログイン')
    }
    expect(
      authErrorMessage(
        failure('NotAuthorizedException', 'Invalid session for the user, session is expired.'),
        'confirmSignIn',
      ).message,
    ).toContain('最初からログインし直して')
  })

  it('shows a Japanese explanation from the server as it is, on the field it names', () => {
    const result = authErrorMessage(
      failure('InvalidParameterException', 'このユーザー名は使えません'),
      'signUp',
    )
    expect(result).toEqual({ message: 'このユーザー名は使えません', field: 'username' })
    expect(
      authErrorMessage(
        failure('UsernameExistsException', 'このユーザー名はすでに使われています'),
        'signUp',
      ),
    ).toEqual({ message: 'このユーザー名はすでに使われています', field: 'username' })
  })

  it('says a taken email is in use, on the email field, with the ways back in', () => {
    const inUse = {
      field: 'email',
      message: expect.stringContaining('このメールアドレスはすでに登録されています'),
      help: 'emailInUse',
    }
    // PreventUserExistenceErrors off: SignUp names the email, not the username.
    expect(
      authErrorMessage(
        failure('UsernameExistsException', 'An account with the given email already exists.'),
        'signUp',
      ),
    ).toEqual(inUse)
    // Amazon Cognito (and ours with prevention on, by mail) tells it at confirmation.
    expect(
      authErrorMessage(
        failure('AliasExistsException', 'An account with the email already exists.'),
        'confirmSignUp',
      ),
    ).toEqual(inUse)
    expect(authErrorMessage(failure('UsernameExistsException', 'User already exists'))).toEqual({
      field: 'username',
      message: expect.stringContaining('このユーザー名はすでに使われています'),
    })
  })

  it('falls back to a general message for anything unknown, never English', () => {
    for (const error of [failure('Weird', 'Something exploded'), 'text', undefined, null, 42, {}]) {
      const result = authErrorMessage(error)
      expect(result.message).toBe(GENERIC_AUTH_ERROR)
      expect(result.message).not.toMatch(/[A-Za-z]{4,}/)
    }
  })

  it('reads plain objects shaped like errors (what SDKs sometimes throw)', () => {
    expect(authErrorMessage({ name: 'CodeMismatchException', message: 'x' }).field).toBe('code')
  })
})
