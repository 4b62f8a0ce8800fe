import { z } from 'zod'
import type { ContactCategory, ContactStatus } from '#db/schema.ts'

// What /contact accepts, shared by the form (its maxLength/required come from here) and the
// server, which validates every message whatever the browser checked.

export const CONTACT_CATEGORIES: readonly { value: ContactCategory; label: string }[] = [
  { value: 'course', label: '講座について' },
  { value: 'bug', label: '不具合の報告' },
  { value: 'payment', label: 'お支払い' },
  { value: 'other', label: 'その他' },
]

export const CONTACT_STATUSES: readonly { value: ContactStatus; label: string }[] = [
  { value: 'new', label: '未対応' },
  { value: 'answered', label: '回答済み' },
  { value: 'closed', label: '完了' },
]

export const categoryLabel = (category: ContactCategory) =>
  CONTACT_CATEGORIES.find((entry) => entry.value === category)?.label ?? category

export const statusLabel = (status: ContactStatus) =>
  CONTACT_STATUSES.find((entry) => entry.value === status)?.label ?? status

/** The hidden field only bots fill: a message that fills it is thanked for but dropped. */
export const HONEYPOT_FIELD = 'website'

export const contactFields = z.object({
  name: z
    .string({ error: 'お名前を入力してください' })
    .trim()
    .min(1, 'お名前を入力してください')
    .max(50, 'お名前は 50 文字以内にしてください'),
  email: z
    .string({ error: 'メールアドレスを入力してください' })
    .trim()
    .min(1, 'メールアドレスを入力してください')
    .max(254, 'メールアドレスは 254 文字以内にしてください')
    .pipe(z.email('メールアドレスの形式が正しくありません')),
  category: z.enum(['course', 'bug', 'payment', 'other'], {
    error: 'お問い合わせの種類を選んでください',
  }),
  message: z
    .string({ error: 'お問い合わせ内容を入力してください' })
    .trim()
    .min(1, 'お問い合わせ内容を入力してください')
    .max(4000, 'お問い合わせ内容は 4000 文字以内にしてください'),
})

export type ContactFields = z.output<typeof contactFields>

export const replyFields = z.object({
  body: z
    .string({ error: '返信の本文を入力してください' })
    .trim()
    .min(1, '返信の本文を入力してください')
    .max(4000, '返信は 4000 文字以内にしてください'),
})

/** The HTML constraints of a text field, read from its schema so form and server agree. */
export function fieldConstraints(schema: z.ZodType): { maxLength?: number; required: boolean } {
  const inner = schema instanceof z.ZodPipe ? schema.in : schema
  const maxLength = inner instanceof z.ZodString ? (inner.maxLength ?? undefined) : undefined
  const minLength = inner instanceof z.ZodString ? (inner.minLength ?? 0) : 0
  return {
    ...(maxLength !== undefined && { maxLength }),
    required: !schema.isOptional() && (minLength > 0 || !(inner instanceof z.ZodString)),
  }
}
