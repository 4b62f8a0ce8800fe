/** A date as /plans and the receipts say it: in Japan's time zone, 2026年12月25日. */
export function planDate(ms: number): string {
  return new Intl.DateTimeFormat('ja-JP', { timeZone: 'Asia/Tokyo', dateStyle: 'long' }).format(ms)
}
