import type { Selectable } from 'kysely'
import type { ChargesTable } from '#db/schema.ts'
import type { MailMessage } from '#server/mail/mailer.ts'
import { enqueue } from '#server/mail/outbox.ts'
import { cardBrandLabel } from './card.ts'
import { formatYen, type PaidPlanId } from './plan-catalogue.ts'
import type { Executor } from './subscription-records.server.ts'

async function emailOf(db: Executor, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('identity_users')
    .select('email')
    .where('sub', '=', userId)
    .executeTakeFirst()
  return row?.email ?? undefined
}

const PLAN_NAMES: Record<PaidPlanId, string> = {
  'premium-monthly': 'プレミアム（月額）',
  'premium-yearly': 'プレミアム（年額）',
}

export function planName(planId: PaidPlanId): string {
  return PLAN_NAMES[planId]
}

export function jstDate(ms: number): string {
  return new Intl.DateTimeFormat('ja-JP', { timeZone: 'Asia/Tokyo', dateStyle: 'long' }).format(ms)
}

export async function enqueueFor(
  trx: Executor,
  userId: string,
  mail: Omit<MailMessage, 'to'>,
  now: number,
): Promise<string[]> {
  const to = await emailOf(trx, userId)
  return to ? [await enqueue(trx, { ...mail, to }, now)] : []
}

export async function mailReceipt(
  trx: Executor,
  userId: string,
  charge: Selectable<ChargesTable>,
  now: number,
): Promise<string[]> {
  return enqueueFor(
    trx,
    userId,
    {
      subject: `【テックラボ】領収書 ${charge.receipt_number}`,
      text: [
        'テックラボをご利用いただきありがとうございます。お支払いを受け付けました。',
        '',
        `領収書番号: ${charge.receipt_number}`,
        `プラン: ${planName(charge.plan_id)}`,
        `期間: ${jstDate(Number(charge.period_start))} 〜 ${jstDate(Number(charge.period_end))}`,
        `金額: ${formatYen(charge.amount_yen)}（うち消費税 ${formatYen(charge.tax_yen)}）`,
        `お支払い方法: ${cardOf(charge)}`,
        '',
        'お支払いの履歴は設定ページ（/settings）の「お支払い」からご覧いただけます。',
      ].join('\n'),
    },
    now,
  )
}

/** The card of a charge; one paid on Stripe before we learned its card shows no number. */
export function cardOf(charge: { card_brand: string | null; card_last4: string | null }): string {
  const label = cardBrandLabel(charge.card_brand)
  return charge.card_last4 === null ? label : `${label} 末尾 ${charge.card_last4}`
}
