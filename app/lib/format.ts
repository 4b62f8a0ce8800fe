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

const dateTimeFormat = new Intl.DateTimeFormat('ja-JP', {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Asia/Tokyo',
})

/** A date and time in the site's zone, for records of who did what when. */
export function formatDateTime(epochMs: number): string {
  return dateTimeFormat.format(epochMs)
}
