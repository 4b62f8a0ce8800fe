import { describe, expect, it } from 'vitest'
import {
  addDays,
  heatmapLevel,
  heatmapMonthLabels,
  heatmapWeeks,
  localDay,
  streaksOf,
} from './learning-days.ts'

const TOKYO = 'Asia/Tokyo'
const NEW_YORK = 'America/New_York'

describe('localDay', () => {
  it('puts instants either side of midnight in Tokyo on their own days', () => {
    // 2026-11-23 23:59:59 JST is 14:59:59 UTC; one second later it is the 24th in Tokyo.
    expect(localDay(Date.UTC(2026, 10, 23, 14, 59, 59), TOKYO)).toBe('2026-11-23')
    expect(localDay(Date.UTC(2026, 10, 23, 15, 0, 0), TOKYO)).toBe('2026-11-24')
    // The same instants are still the 23rd in UTC and in New York.
    expect(localDay(Date.UTC(2026, 10, 23, 15, 0, 0), 'UTC')).toBe('2026-11-23')
    expect(localDay(Date.UTC(2026, 10, 23, 15, 0, 0), NEW_YORK)).toBe('2026-11-23')
  })

  it('follows New York across the daylight-saving changes', () => {
    // 2026-03-08: clocks jump from 02:00 EST to 03:00 EDT; midnight before is 05:00 UTC,
    // midnight after is 04:00 UTC (a 23-hour day).
    expect(localDay(Date.UTC(2026, 2, 8, 4, 59), NEW_YORK)).toBe('2026-03-07')
    expect(localDay(Date.UTC(2026, 2, 8, 5, 0), NEW_YORK)).toBe('2026-03-08')
    expect(localDay(Date.UTC(2026, 2, 9, 3, 59), NEW_YORK)).toBe('2026-03-08')
    expect(localDay(Date.UTC(2026, 2, 9, 4, 0), NEW_YORK)).toBe('2026-03-09')
    // 2026-11-01: back from EDT to EST, a 25-hour day from 04:00 UTC to 05:00 UTC next day.
    expect(localDay(Date.UTC(2026, 10, 1, 4, 0), NEW_YORK)).toBe('2026-11-01')
    expect(localDay(Date.UTC(2026, 10, 2, 4, 59), NEW_YORK)).toBe('2026-11-01')
    expect(localDay(Date.UTC(2026, 10, 2, 5, 0), NEW_YORK)).toBe('2026-11-02')
  })
})

describe('addDays', () => {
  it('steps by calendar days across month, year and leap-day boundaries', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01')
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29')
    expect(addDays('2026-03-08', 1)).toBe('2026-03-09')
  })
})

describe('streaksOf', () => {
  it('counts nothing without learning', () => {
    expect(streaksOf([], '2026-11-23')).toEqual({ current: 0, longest: 0 })
  })

  it('keeps the streak alive until today ends, and breaks it after a day off', () => {
    const days = ['2026-11-20', '2026-11-21', '2026-11-22']
    expect(streaksOf(days, '2026-11-22')).toEqual({ current: 3, longest: 3 })
    expect(streaksOf(days, '2026-11-23')).toEqual({ current: 3, longest: 3 })
    expect(streaksOf(days, '2026-11-24')).toEqual({ current: 0, longest: 3 })
  })

  it('finds the longest run anywhere, however the days are ordered or repeated', () => {
    const days = [
      '2026-11-23',
      '2026-01-02',
      '2025-12-31',
      '2026-01-01',
      '2026-01-01',
      '2026-11-22',
    ]
    expect(streaksOf(days, '2026-11-23')).toEqual({ current: 2, longest: 3 })
  })

  it('joins two learning sessions one Tokyo midnight apart into a streak of two days', () => {
    // 23:30 JST on the 22nd and 00:30 JST on the 23rd: one hour apart, two days in Tokyo,
    // but the same day (the 22nd) in UTC.
    const instants = [Date.UTC(2026, 10, 22, 14, 30), Date.UTC(2026, 10, 22, 15, 30)]
    const now = Date.UTC(2026, 10, 23, 3, 0)
    const streak = (zone: string) =>
      streaksOf(
        instants.map((at) => localDay(at, zone)),
        localDay(now, zone),
      )
    expect(streak(TOKYO)).toEqual({ current: 2, longest: 2 })
    expect(streak('UTC')).toEqual({ current: 1, longest: 1 })
  })

  it('counts the 23- and 25-hour days of New York as one day each', () => {
    // Learning late every evening from March 7 to 9 and from Oct 31 to Nov 2, New York time.
    const evenings = [
      Date.UTC(2026, 2, 8, 4, 30), // 23:30 EST on the 7th
      Date.UTC(2026, 2, 9, 3, 30), // 23:30 EDT on the 8th (23 hours later)
      Date.UTC(2026, 2, 10, 3, 30), // 23:30 EDT on the 9th
      Date.UTC(2026, 10, 1, 3, 30), // 23:30 EDT on Oct 31
      Date.UTC(2026, 10, 2, 4, 30), // 23:30 EST on Nov 1 (25 hours later)
      Date.UTC(2026, 10, 3, 4, 30), // 23:30 EST on Nov 2
    ]
    const days = evenings.map((at) => localDay(at, NEW_YORK))
    expect(days).toEqual([
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-10-31',
      '2026-11-01',
      '2026-11-02',
    ])
    // Early on Nov 3 (00:30 EST), the streak from Oct 31 is still open.
    const today = localDay(Date.UTC(2026, 10, 3, 5, 30), NEW_YORK)
    expect(today).toBe('2026-11-03')
    expect(streaksOf(days, today)).toEqual({ current: 3, longest: 3 })
  })
})

describe('heatmapWeeks', () => {
  it('lays whole weeks from Sunday, ending today, with counts per day', () => {
    // 2026-11-25 is a Wednesday.
    const weeks = heatmapWeeks(
      new Map([
        ['2026-11-25', 2],
        ['2026-11-15', 1],
      ]),
      '2026-11-25',
      2,
    )
    expect(weeks.map((week) => week.map(({ day }) => day))).toEqual([
      [
        '2026-11-15',
        '2026-11-16',
        '2026-11-17',
        '2026-11-18',
        '2026-11-19',
        '2026-11-20',
        '2026-11-21',
      ],
      ['2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25'],
    ])
    expect(weeks[0]?.[0]).toEqual({ day: '2026-11-15', count: 1 })
    expect(weeks[1]?.at(-1)).toEqual({ day: '2026-11-25', count: 2 })
    expect(weeks.flat().reduce((sum, { count }) => sum + count, 0)).toBe(3)
  })

  it('covers 53 weeks by default', () => {
    const weeks = heatmapWeeks(new Map(), '2026-11-21')
    expect(weeks).toHaveLength(53)
    expect(weeks[0]?.[0]?.day).toBe('2025-11-16')
    expect(weeks.at(-1)).toHaveLength(7)
  })
})

describe('heatmapMonthLabels', () => {
  it('names each month over the column of its first day, in Japanese', () => {
    // Wednesday 2026-11-25: the first column starts Sunday 2025-11-23, December starts in the next.
    const weeks = heatmapWeeks(new Map(), '2026-11-25')
    const labels = heatmapMonthLabels(weeks)
    expect(labels.map(({ label }) => label)).toEqual([
      '12月',
      '1月',
      '2月',
      '3月',
      '4月',
      '5月',
      '6月',
      '7月',
      '8月',
      '9月',
      '10月',
      '11月',
    ])
    expect(labels[0]?.week).toBe(1)
    for (const { week, label } of labels) {
      const first = weeks[week]?.find(({ day }) => day.endsWith('-01'))
      expect(first && `${Number(first.day.slice(5, 7))}月`).toBe(label)
    }
    // 2026-11-01 is a Sunday, four columns before the last (today's).
    expect(labels.at(-1)).toEqual({ week: 49, label: '11月' })
  })

  it('names the first column for its own month only when the next name is not crowding it', () => {
    // Sunday 2026-11-08: the first column starts 2025-11-09; December starts three columns on.
    const labels = heatmapMonthLabels(heatmapWeeks(new Map(), '2026-11-08'))
    expect(labels.slice(0, 2)).toEqual([
      { week: 0, label: '11月' },
      { week: 3, label: '12月' },
    ])
    expect(heatmapMonthLabels([])).toEqual([])
  })
})

describe('heatmapLevel', () => {
  it('steps from none to darkest as a day has more events', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(heatmapLevel)).toEqual([0, 1, 2, 2, 3, 3, 4, 4])
  })
})
