import type { HeatmapDay } from '../../../features/history/learning-days.ts'

const WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土']

/** Darker for more events in a day; the thresholds suit a learner's few lessons a day. */
function levelClass(count: number): string {
  if (count === 0) return 'bg-slate-100 dark:bg-slate-800'
  if (count === 1) return 'bg-emerald-200 dark:bg-emerald-900'
  if (count <= 3) return 'bg-emerald-400 dark:bg-emerald-700'
  if (count <= 5) return 'bg-emerald-600 dark:bg-emerald-500'
  return 'bg-emerald-800 dark:bg-emerald-300'
}

function dayLabel(day: string, count: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  const weekday = WEEKDAYS[new Date(Date.UTC(year, month - 1, date)).getUTCDay()]
  return `${year}年${month}月${date}日（${weekday}）: ${count === 0 ? '記録なし' : `${count} 件`}`
}

/**
 * The last year of learning, a column per week (Sunday at the top), rendered on the server.
 * Each day is a list item with its date and count spoken in full, so the grid reads as a list.
 */
export function Heatmap({ weeks }: { weeks: HeatmapDay[][] }) {
  return (
    <div className="overflow-x-auto pb-2">
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
                  className={`size-3 rounded-sm ${levelClass(count)}`}
                />
              ))}
            </ol>
          </li>
        ))}
      </ol>
    </div>
  )
}
