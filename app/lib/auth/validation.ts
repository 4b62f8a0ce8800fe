import { PASSWORD_FORMAT } from './identity-config.ts'

/**
 * The rules of the sign-up and password forms, checked in the browser before anything is
 * sent, with the same words the checklist shows. The user pool checks them again.
 */

/** Usernames become URLs (`/{user}`); the same rule as features/users/accounts.server.ts. */
export const USERNAME_PATTERN = /^[a-z0-9_]{3,20}$/

export const USERNAME_RULE =
  '半角の英小文字（a〜z）・数字・アンダースコア（_）で、3〜20文字。ページのURL（/ユーザー名）になります。'

export const PASSWORD_RULES = [
  {
    id: 'length',
    label: `${PASSWORD_FORMAT.minLength}文字以上`,
    test: (p: string) => [...p].length >= PASSWORD_FORMAT.minLength,
  },
  { id: 'upper', label: '英大文字（A〜Z）', test: (p: string) => /[A-Z]/.test(p) },
  { id: 'lower', label: '英小文字（a〜z）', test: (p: string) => /[a-z]/.test(p) },
  { id: 'digit', label: '数字（0〜9）', test: (p: string) => /[0-9]/.test(p) },
  {
    id: 'symbol',
    label: '記号（!・#・@ など）',
    // Cognito's special characters: ^ $ * . [ ] { } ( ) ? " ! @ # % & / \ , > < ' : ; | _ ~ ` = + - and space.
    test: (p: string) => /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\- ]/.test(p),
  },
] as const

export type PasswordRuleId = (typeof PASSWORD_RULES)[number]['id']

export function passwordChecks(
  password: string,
): { id: PasswordRuleId; label: string; met: boolean }[] {
  return PASSWORD_RULES.map((rule) => ({
    id: rule.id,
    label: rule.label,
    met: rule.test(password),
  }))
}

export function passwordMeetsPolicy(password: string): boolean {
  return PASSWORD_RULES.every((rule) => rule.test(password))
}

export function usernameError(username: string): string | undefined {
  if (username === '') return 'ユーザー名を入力してください。'
  if (/[A-Z]/.test(username) && USERNAME_PATTERN.test(username.toLowerCase())) {
    return 'ユーザー名に英大文字は使えません。小文字にしてください。'
  }
  if (!USERNAME_PATTERN.test(username)) {
    return 'ユーザー名は半角の英小文字・数字・アンダースコア（_）で、3〜20文字にしてください。'
  }
  return undefined
}

// Deliberately loose: the mail itself proves the address. Catches typos like a missing @.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function emailError(email: string): string | undefined {
  if (email === '') return 'メールアドレスを入力してください。'
  if (!EMAIL_PATTERN.test(email) || email.length > 254) {
    return 'メールアドレスの形式が正しくありません（例: hana@example.com）。'
  }
  return undefined
}

export function newPasswordError(password: string): string | undefined {
  if (password === '') return 'パスワードを入力してください。'
  if (!passwordMeetsPolicy(password)) {
    const missing = passwordChecks(password)
      .filter((check) => !check.met)
      .map((check) => check.label)
    return `パスワードに足りないもの: ${missing.join('、')}`
  }
  return undefined
}

/** Six digits, as typed: full-width digits and spaces are forgiven. */
export function normalizeCode(code: string): string {
  return code
    .replace(/[０-９]/g, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xfee0))
    .replace(/[\s-]/g, '')
}

export function codeError(code: string): string | undefined {
  if (code === '') return 'コードを入力してください。'
  if (!/^\d{6}$/.test(code)) return 'コードは6桁の数字です。'
  return undefined
}
