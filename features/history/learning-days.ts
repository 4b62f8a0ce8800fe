// Days of learning as a learner lives them: an instant belongs to the calendar day of the
// learner's own time zone, so midnight and daylight-saving changes fall where they do for them.
// Days are `YYYY-MM-DD` strings; stepping between them is done on the calendar (UTC dates),
// never by adding 24 hours to an instant, which a 23- or 25-hour day would break.

const DAY_MS = 86_400_000

const formatters = new Map<string, Intl.DateTimeFormat>()

/** The calendar day (`YYYY-MM-DD`) of `at` in `timeZone`. */
export function localDay(at: number, timeZone: string): string {
  let format = formatters.get(timeZone)
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    })
    formatters.set(timeZone, format)
  }
  return format.format(at)
}

/** The day `offset` calendar days after `day` (before, when negative). */
export function addDays(day: string, offset: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(year, month - 1, date) + offset * DAY_MS).toISOString().slice(0, 10)
}

/** 0 for Sunday … 6 for Saturday. */
export function weekdayOf(day: string): number {
  return new Date(`${day}T00:00:00Z`).getUTCDay()
}

export type Streaks = {
  /** Consecutive days with learning up to today, or up to yesterday while today is still open. */
  current: number
  longest: number
}

/** Current and longest runs of consecutive days among `days` (any order, repeats allowed). */
export function streaksOf(days: Iterable<string>, today: string): Streaks {
  const active = new Set(days)
  let longest = 0
  for (const day of active) {
    // Count each run once, from its first day.
    if (active.has(addDays(day, -1))) continue
    let length = 1
    while (active.has(addDays(day, length))) length += 1
    longest = Math.max(longest, length)
  }
  let current = 0
  let day = active.has(today) ? today : addDays(today, -1)
  while (active.has(day)) {
    current += 1
    day = addDays(day, -1)
  }
  return { current, longest }
}

export type HeatmapDay = { day: string; count: number }

/**
 * The heatmap's columns: `weeks` whole weeks (Sunday to Saturday) ending with the week of
 * `today`, days after today left out, each day with its number of events.
 */
export function heatmapWeeks(
  countsByDay: ReadonlyMap<string, number>,
  today: string,
  weeks = 53,
): HeatmapDay[][] {
  const first = addDays(today, -weekdayOf(today) - (weeks - 1) * 7)
  const columns: HeatmapDay[][] = []
  for (let week = 0; week < weeks; week += 1) {
    const column: HeatmapDay[] = []
    for (let weekday = 0; weekday < 7; weekday += 1) {
      const day = addDays(first, week * 7 + weekday)
      if (day > today) break
      column.push({ day, count: countsByDay.get(day) ?? 0 })
    }
    columns.push(column)
  }
  return columns
}

/**
 * How dark a day's cell is, 0 (none) to 4, for its number of events. The thresholds suit a
 * learner's few lessons a day; the legend shows the same five steps.
 */
export function heatmapLevel(count: number): 0 | 1 | 2 | 3 | 4 {
  if (count <= 0) return 0
  if (count === 1) return 1
  if (count <= 3) return 2
  if (count <= 5) return 3
  return 4
}

export type MonthLabel = { week: number; label: string }

/**
 * The month names over the heatmap's columns (「1月」…「12月」): each month is named over the
 * column holding its first day. The first column is named for its own month unless the next
 * month starts within two columns, where the two names would overlap.
 */
export function heatmapMonthLabels(weeks: readonly (readonly HeatmapDay[])[]): MonthLabel[] {
  const labels: MonthLabel[] = []
  weeks.forEach((column, week) => {
    const first = column.find(({ day }) => day.endsWith('-01'))
    if (first) labels.push({ week, label: `${Number(first.day.slice(5, 7))}月` })
  })
  const opening = weeks[0]?.[0]
  if (opening && !opening.day.endsWith('-01') && (labels[0]?.week ?? Infinity) > 2) {
    labels.unshift({ week: 0, label: `${Number(opening.day.slice(5, 7))}月` })
  }
  return labels
}
