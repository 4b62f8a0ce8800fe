import { Flame, Target } from 'lucide-react'
import { Link } from 'react-router'
import { dayLabel, LEVEL_CLASSES, WEEKDAYS } from '#app/components/histories/heatmap.tsx'
import type { LearningWeek as Week } from '#features/history/histories.server.ts'
import { heatmapLevel } from '#features/history/learning-days.ts'

/**
 * The top of a signed-in learner's home: the streak, this week's row of the history's heatmap
 * (the same colours), and whether today's goal is met. Rendered on the server; no script.
 */
export function LearningWeek({ week }: { week: Week }) {
  const met = week.goal.done >= week.goal.target
  return (
    <section aria-labelledby="week-heading" className="flex flex-col gap-4" data-learning-week>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 id="week-heading" className="text-2xl font-bold">
          今週の学習
        </h1>
        <Link to="/histories" className="text-sm text-brand-700 underline dark:text-sky-300">
          学習履歴を見る
        </Link>
      </div>
      <div className="grid gap-3 sm:grid-cols-[auto_1fr_auto] sm:items-center">
        <p
          className="flex items-center gap-2 rounded-xl border border-slate-200 px-4 py-3 dark:border-slate-800"
          data-streak={week.streak}
        >
          <Flame
            aria-hidden="true"
            className="size-6 shrink-0 text-orange-600 dark:text-orange-400"
          />
          <span>
            <span className="block text-xs text-slate-600 dark:text-slate-400">連続学習</span>
            <span className="text-xl font-bold">{week.streak} 日</span>
          </span>
        </p>
        <ol
          aria-label="今週の記録"
          className="grid grid-cols-7 gap-1.5 rounded-xl border border-slate-200 px-3 py-3 dark:border-slate-800"
        >
          {week.days.map((cell, index) => (
            <li
              key={cell.day}
              className="flex flex-col items-center gap-1 text-xs"
              aria-current={cell.day === week.today ? 'date' : undefined}
              data-week-day={cell.day}
            >
              <span aria-hidden="true" className="text-slate-600 dark:text-slate-400">
                {WEEKDAYS[index]}
              </span>
              <span
                className={`size-6 rounded ${
                  cell.count === null
                    ? 'border border-dashed border-slate-300 dark:border-slate-700'
                    : LEVEL_CLASSES[heatmapLevel(cell.count)]
                } ${cell.day === week.today ? 'ring-2 ring-brand-600 ring-offset-1 dark:ring-sky-400 dark:ring-offset-slate-950' : ''}`}
                data-level={cell.count === null ? undefined : heatmapLevel(cell.count)}
              />
              <span className="sr-only">{dayLabel(cell.day, cell.count)}</span>
            </li>
          ))}
        </ol>
        <p
          className={`flex items-center gap-2 rounded-xl border px-4 py-3 ${
            met
              ? 'border-emerald-300 bg-emerald-50 dark:border-emerald-800 dark:bg-emerald-950'
              : 'border-slate-200 dark:border-slate-800'
          }`}
          data-goal={met ? 'met' : 'open'}
        >
          <Target aria-hidden="true" className="size-6 shrink-0 text-brand-600 dark:text-sky-300" />
          <span>
            <span className="block text-xs text-slate-600 dark:text-slate-400">今日の目標</span>
            <span className="font-semibold">
              {met ? '達成しました！' : `あと ${week.goal.target - week.goal.done} つ学ぼう`}
            </span>
            <span className="block text-xs text-slate-600 dark:text-slate-400">
              レッスンの完了・問題の正解・公開のどれか 1 つ
            </span>
          </span>
        </p>
      </div>
    </section>
  )
}
