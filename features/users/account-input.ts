import { z } from 'zod'

// What people type to make an account (the sign-up and username screens, in the browser) and
// what the server's account rules check (accounts.server.ts): one schema for both.

/** Usernames become URLs (`/{user}`): lowercase letters, digits and underscores, 3–20 long. */
export const USERNAME_PATTERN = /^[a-z0-9_]{3,20}$/

// Checks run in order and a field shows its first message, so the likeliest slip comes first.
export const usernameSchema = z
  .string({ error: 'ユーザー名を入力してください。' })
  .trim()
  .min(1, 'ユーザー名を入力してください。')
  .refine((value) => !(/[A-Z]/.test(value) && USERNAME_PATTERN.test(value.toLowerCase())), {
    error: 'ユーザー名に英大文字は使えません。小文字にしてください。',
  })
  .regex(
    USERNAME_PATTERN,
    'ユーザー名は半角の英小文字・数字・アンダースコア（_）で、3〜20文字にしてください。',
  )
  .max(20, 'ユーザー名は20文字以内にしてください。')

// Deliberately loose: the mail itself proves the address. Catches typos like a missing @.
export const emailSchema = z
  .string({ error: 'メールアドレスを入力してください。' })
  .trim()
  .min(1, 'メールアドレスを入力してください。')
  .max(254, 'メールアドレスの形式が正しくありません（例: hana@example.com）。')
  .regex(
    /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
    'メールアドレスの形式が正しくありません（例: hana@example.com）。',
  )
