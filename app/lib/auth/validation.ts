import { z } from 'zod'
import { emailSchema, usernameSchema } from '#features/users/account-input.ts'
import { passwordChecks } from './password-rules.ts'

/**
 * The rules of the sign-up and password forms, checked in the browser before anything is
 * sent, with the same words the checklist shows. The user pool checks them again.
 */

export const USERNAME_RULE =
  '半角の英小文字（a〜z）・数字・アンダースコア（_）で、3〜20文字。ページのURL（/ユーザー名）になります。'

/** The first message of a field's schema (features/users/account-input.ts), or undefined. */
function firstError(schema: z.ZodType, value: string): string | undefined {
  const result = schema.safeParse(value)
  return result.success ? undefined : result.error.issues[0]?.message
}

export const usernameError = (username: string) => firstError(usernameSchema, username)

export const emailError = (email: string) => firstError(emailSchema, email)

/** Six digits, as typed: full-width digits and spaces are forgiven. */
export function normalizeCode(code: string): string {
  return code
    .replace(/[０-９]/g, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xfee0))
    .replace(/[\s-]/g, '')
}

/** A new password: the pool's rules, naming what is missing (the checklist's words). */
export const newPasswordSchema = z
  .string({ error: 'パスワードを入力してください。' })
  .min(1, 'パスワードを入力してください。')
  .superRefine((password, context) => {
    const missing = passwordChecks(password).filter((check) => !check.met)
    if (password !== '' && missing.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `パスワードに足りないもの: ${missing.map((check) => check.label).join('、')}`,
      })
    }
  })

export const newPasswordError = (password: string) => firstError(newPasswordSchema, password)

const MISMATCH = '確認用のパスワードが一致しません。'

/**
 * A new password typed twice (the reset, sign-in's forced change, the settings' change): the
 * fields of NewPasswordFields. A mismatch is told on the confirmation field.
 */
export const newPasswordPair = z
  .object({ newPassword: newPasswordSchema, confirmation: z.string().default('') })
  .refine((pair) => pair.newPassword === pair.confirmation, {
    path: ['confirmation'],
    error: MISMATCH,
  })

/** A six-digit code as typed (full-width digits, spaces and hyphens forgiven). */
export const codeSchema = z
  .string({ error: 'コードを入力してください。' })
  .transform(normalizeCode)
  .pipe(
    z
      .string()
      .min(1, 'コードを入力してください。')
      .regex(/^\d{6}$/, 'コードは6桁の数字です。'),
  )

/** The name or address an account is found by (sign-in, the reset). */
export const signInNameSchema = z
  .string({ error: 'ユーザー名またはメールアドレスを入力してください。' })
  .trim()
  .min(1, 'ユーザー名またはメールアドレスを入力してください。')

export const codeError = (code: string) => firstError(codeSchema, code)
