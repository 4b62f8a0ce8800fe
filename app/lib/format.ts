// Server and browser must format alike or hydration fails: fix the zone to the site's.
const dateFormat = new Intl.DateTimeFormat('ja-JP', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'Asia/Tokyo',
})

export function formatDate(epochMs: number): string {
  return dateFormat.format(epochMs)
}
