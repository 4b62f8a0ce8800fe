// The paid plans as the site sells them: browser-safe (the /plans page and the server share it).
// Prices come from configuration (server/config.ts: PLAN_PREMIUM_MONTHLY_YEN and …_YEARLY_YEN,
// before tax); what is charged and shown is the price with consumption tax, as Japanese law
// asks prices to be shown (総額表示), with the tax part beside it.

export const PAID_PLAN_IDS = ['premium-monthly', 'premium-yearly'] as const
export type PaidPlanId = (typeof PAID_PLAN_IDS)[number]

export type PlanInterval = 'month' | 'year'

export type PlanPrice = {
  id: PaidPlanId
  interval: PlanInterval
  /** Before tax, as configured. */
  priceYen: number
  taxYen: number
  /** What is charged each period: price plus tax. */
  totalYen: number
}

export const CONSUMPTION_TAX_PERCENT = 10

/** Tax on a price in yen, rounded down as Japanese invoices commonly do (端数切り捨て). */
export function consumptionTax(priceYen: number): number {
  return Math.floor((priceYen * CONSUMPTION_TAX_PERCENT) / 100)
}

export function planPrice(id: PaidPlanId, priceYen: number): PlanPrice {
  const taxYen = consumptionTax(priceYen)
  return {
    id,
    interval: id === 'premium-yearly' ? 'year' : 'month',
    priceYen,
    taxYen,
    totalYen: priceYen + taxYen,
  }
}

/** `1,100円`: yen as Japanese pages write amounts. */
export function formatYen(amount: number): string {
  return `${amount.toLocaleString('ja-JP')}円`
}

/**
 * The end of a period that starts at `start` (ms since the epoch): one calendar month or year
 * later in Japan's time zone, clamped to the month's last day (Jan 31 → Feb 28/29), as Stripe
 * bills monthly subscriptions.
 */
export function periodEnd(start: number, interval: PlanInterval): number {
  const JST_OFFSET_MS = 9 * 3600 * 1000
  const local = new Date(start + JST_OFFSET_MS)
  const months = interval === 'year' ? 12 : 1
  const year = local.getUTCFullYear()
  const month = local.getUTCMonth() + months
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  const end = Date.UTC(
    year,
    month,
    Math.min(local.getUTCDate(), lastDay),
    local.getUTCHours(),
    local.getUTCMinutes(),
    local.getUTCSeconds(),
    local.getUTCMilliseconds(),
  )
  return end - JST_OFFSET_MS
}
