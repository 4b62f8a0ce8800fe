import { useEffect, useRef } from 'react'
import {
  type HeatmapDay,
  heatmapLevel,
  heatmapMonthLabels,
} from '#features/history/learning-days.ts'

export const WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土']

/** Cell colours by heatmapLevel, lightest (no events) to darkest; the legend uses the same. */
export const LEVEL_CLASSES = [
  'bg-slate-100 dark:bg-slate-800',
  'bg-emerald-200 dark:bg-emerald-900',
  'bg-emerald-400 dark:bg-emerald-700',
  'bg-emerald-600 dark:bg-emerald-500',
  'bg-emerald-800 dark:bg-emerald-300',
] as const

/** A cell is 12 px with 3 px between: one column every 15 px. */
const COLUMN_PX = 15

export function dayLabel(day: string, count: number | null): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  const weekday = WEEKDAYS[new Date(Date.UTC(year, month - 1, date)).getUTCDay()]
  const what = count === null ? 'これから' : count === 0 ? '記録なし' : `${count} 件`
  return `${year}年${month}月${date}日（${weekday}）: ${what}`
}

/**
 * The last year of learning, a column per week (Sunday at the top), rendered on the server.
 * Each day is a list item with its date and count spoken in full, so the grid reads as a list;
 * the month and weekday names around it are for the eye only, since each day already says both.
 * On a narrow screen the grid scrolls, and opens at its right end, where today is.
 */
export function Heatmap({ weeks }: { weeks: HeatmapDay[][] }) {
  const scrollRef = useRef<HTMLElement>(null)
  useEffect(() => {
    const scroller = scrollRef.current
    if (scroller) scroller.scrollLeft = scroller.scrollWidth
  }, [])
  const months = heatmapMonthLabels(weeks)
  return (
    <div>
      {/* Keyboard users scroll it too (it holds nothing focusable): focusable, with a name. */}
      <section
        ref={scrollRef}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus (axe)
        tabIndex={0}
        aria-label="学習の記録（横にスクロールできます）"
        className="relative overflow-x-auto rounded pb-2 focus-visible:outline-2 focus-visible:outline-brand-600"
        data-heatmap-scroll
      >
        <div className="flex w-max gap-[3px]">
          <div
            aria-hidden="true"
            className="sticky left-0 z-10 flex flex-col gap-[3px] bg-white pr-1 pt-5 text-[10px] leading-3 text-slate-600 dark:bg-slate-950 dark:text-slate-400"
          >
            {WEEKDAYS.map((weekday, index) => (
              <span key={weekday} className="h-3" data-weekday-label={index % 2 === 1 || undefined}>
                {index % 2 === 1 ? weekday : ''}
              </span>
            ))}
          </div>
          <div>
            <div
              aria-hidden="true"
              className="relative h-5 text-[10px] leading-3 text-slate-600 dark:text-slate-400"
            >
              {months.map(({ week, label }) => (
                <span
                  key={`${week}-${label}`}
                  className="absolute top-0 whitespace-nowrap"
                  style={{ left: week * COLUMN_PX }}
                  data-month-label
                >
                  {label}
                </span>
              ))}
            </div>
            <ol aria-label="日ごとの学習の記録（過去1年）" className="flex gap-[3px]">
              {weeks.map((week) => (
                <li key={week[0]?.day}>
                  <ol className="flex flex-col gap-[3px]">
                    {week.map(({ day, count }) => (
                      <li
                        key={day}
                        aria-label={dayLabel(day, count)}
                        title={dayLabel(day, count)}
                        data-day={day}
                        data-count={count}
                        data-level={heatmapLevel(count)}
                        className={`size-3 rounded-sm ${LEVEL_CLASSES[heatmapLevel(count)]}`}
                      />
                    ))}
                  </ol>
                </li>
              ))}
            </ol>
          </div>
        </div>
      </section>
      <p
        className="mt-1 flex items-center justify-end gap-[3px] text-xs text-slate-600 dark:text-slate-400"
        data-heatmap-legend
      >
        <span className="mr-1">少ない</span>
        {LEVEL_CLASSES.map((levelClass, level) => (
          <span
            key={levelClass}
            aria-hidden="true"
            className={`size-3 rounded-sm ${levelClass}`}
            data-legend-level={level}
          />
        ))}
        <span className="ml-1">多い</span>
      </p>
    </div>
  )
}
