import { z } from 'zod'

// A card as the embedded checkout form sends it: checked here, in the browser (as the learner
// types) and on the server (whatever the browser checked). The number is only ever held in
// memory for the gateway call: never stored, never logged (server/app.ts redacts the form).

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'jcb' | 'diners' | 'discover' | 'unknown'

export const CARD_BRAND_LABELS: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  jcb: 'JCB',
  diners: 'Diners Club',
  discover: 'Discover',
  unknown: 'カード',
}

/** A stored brand as people read it (Visa, JCB…). */
export function cardBrandLabel(brand: string | null | undefined): string {
  return CARD_BRAND_LABELS[(brand ?? 'unknown') as CardBrand] ?? 'カード'
}

/** Digits only: spaces and hyphens as people type them are dropped. */
export function cardDigits(number: string): string {
  return number.replace(/[\s-]/g, '')
}

/** The Luhn checksum every card number carries. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false
  let sum = 0
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index])
    if (index % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

export function cardBrand(digits: string): CardBrand {
  if (/^4/.test(digits)) return 'visa'
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'mastercard'
  if (/^3[47]/.test(digits)) return 'amex'
  if (/^35(2[89]|[3-8]\d)/.test(digits)) return 'jcb'
  if (/^3(0[0-5]|[68])/.test(digits)) return 'diners'
  if (/^6(011|5)/.test(digits)) return 'discover'
  return 'unknown'
}

/** The card fields, with Japanese messages; `now` decides whether the expiry has passed. */
export function cardFields(now: number) {
  const today = new Date(now)
  return z
    .object({
      number: z
        .string({ error: 'カード番号を入力してください' })
        .transform(cardDigits)
        .refine((digits) => /^\d{12,19}$/.test(digits), {
          error: 'カード番号は 12〜19 桁の数字で入力してください',
        })
        .refine(luhnValid, { error: 'カード番号が正しくありません' }),
      expMonth: z.coerce
        .number({ error: '有効期限（月）を入力してください' })
        .int('有効期限（月）は 1〜12 で入力してください')
        .min(1, '有効期限（月）は 1〜12 で入力してください')
        .max(12, '有効期限（月）は 1〜12 で入力してください'),
      expYear: z.coerce
        .number({ error: '有効期限（年）を入力してください' })
        .int('有効期限（年）は西暦 4 桁で入力してください')
        .min(2000, '有効期限（年）は西暦 4 桁で入力してください')
        .max(2100, '有効期限（年）は西暦 4 桁で入力してください'),
      cvc: z.string({ error: 'セキュリティコードを入力してください' }).trim(),
      name: z
        .string({ error: 'カード名義を入力してください' })
        .trim()
        .min(1, 'カード名義を入力してください')
        .max(100, 'カード名義は 100 文字以内で入力してください'),
    })
    .superRefine((card, context) => {
      const lastValidMonth = card.expYear * 12 + card.expMonth
      if (lastValidMonth < today.getUTCFullYear() * 12 + today.getUTCMonth() + 1) {
        context.addIssue({
          code: 'custom',
          path: ['expMonth'],
          message: 'カードの有効期限が切れています',
        })
      }
      const cvcLength = cardBrand(card.number) === 'amex' ? 4 : 3
      if (!new RegExp(`^\\d{${cvcLength}}$`).test(card.cvc)) {
        context.addIssue({
          code: 'custom',
          path: ['cvc'],
          message: `セキュリティコードは ${cvcLength} 桁の数字で入力してください`,
        })
      }
    })
}
export type CardInput = z.infer<ReturnType<typeof cardFields>>
