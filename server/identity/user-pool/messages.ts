import type { MailMessage } from '#server/mail/mailer.ts'

/** The mail the user pool sends, in Japanese. Codes and temporary passwords go only here. */
export type CodePurpose = 'sign_up' | 'forgot_password' | 'verify_email' | 'sms_mfa' | 'custom_auth'

const FOOTER = '\n\n心当たりがない場合は、このメールを破棄してください。\n\nテックラボ'

export function codeMessage(
  purpose: CodePurpose,
  to: string,
  username: string,
  code: string,
  validFor: string,
): MailMessage {
  const { subject, lead } = {
    sign_up: {
      subject: '【テックラボ】ご登録の確認コード',
      lead: 'テックラボへのご登録ありがとうございます。',
    },
    forgot_password: {
      subject: '【テックラボ】パスワード再設定の確認コード',
      lead: 'パスワードの再設定を受け付けました。',
    },
    verify_email: {
      subject: '【テックラボ】メールアドレスの確認コード',
      lead: 'メールアドレスの確認をお願いします。',
    },
    custom_auth: {
      subject: '【テックラボ】ログイン用コード',
      lead: 'メールで届いたコードでログインできます。',
    },
    sms_mfa: {
      subject: '【テックラボ】ログインの確認コード',
      lead: 'ログインを続けるには、次のコードを入力してください。',
    },
  }[purpose]
  return {
    to,
    subject,
    text: `${username} さん\n\n${lead}\n確認コード: ${code}\n\nこのコードの有効期限は${validFor}です。${FOOTER}`,
  }
}

export function invitationMessage(
  to: string,
  username: string,
  password: string,
  validDays: number,
): MailMessage {
  return {
    to,
    subject: '【テックラボ】アカウントが作成されました',
    text: `${username} さん\n\n管理者があなたのアカウントを作成しました。\nユーザー名: ${username}\n仮パスワード: ${password}\n\n${validDays}日以内にログインし、新しいパスワードを設定してください。${FOOTER}`,
  }
}

/**
 * Sent instead of a sign-up code when the address is already verified on another account
 * (PreventUserExistenceErrors: SignUp itself answered as if all were well). Only the address's
 * owner reads that it is in use, with the way back into the account they already have.
 * `siteUrl` is the site's base URL; the paths are the site's sign-in and reset screens.
 */
export function emailInUseMessage(to: string, holder: string, siteUrl: string): MailMessage {
  const name = encodeURIComponent(holder)
  return {
    to,
    subject: '【テックラボ】このメールアドレスはすでに登録されています',
    text: `テックラボの新規登録で、このメールアドレスが入力されました。\nこのアドレスには、すでにアカウント（ユーザー名: ${holder}）があるため、新しいアカウントは作れません。確認コードはお送りしていません。\n\nログインする: ${siteUrl}/auth/signin?username=${name}\nパスワードを忘れた場合: ${siteUrl}/auth/forgotPassword?username=${name}\n\n心当たりがない場合は、このメールを破棄してください。今のアカウントはそのまま使えます。\n\nテックラボ`,
  }
}
