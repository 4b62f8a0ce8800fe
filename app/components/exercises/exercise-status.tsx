import { Check, Circle, CircleDot } from 'lucide-react'

import type { QuestionStatus as ExerciseStatus } from './learner-types.ts'

export type { ExerciseStatus }

export const STATUS_LABELS: Record<ExerciseStatus, string> = {
  not_started: '未挑戦',
  attempted: '挑戦中',
  solved: '正解済み',
}

/** 未挑戦 / 挑戦中 / 正解済み, as a badge with its icon (the word carries it; the icon is decoration). */
export function StatusBadge({ status }: { status: ExerciseStatus }) {
  const Icon = status === 'solved' ? Check : status === 'attempted' ? CircleDot : Circle
  return (
    <span
      data-status={status}
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ${
        status === 'solved'
          ? 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100'
          : status === 'attempted'
            ? 'bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-100'
            : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200'
      }`}
    >
      <Icon aria-hidden="true" className="size-3.5" />
      {STATUS_LABELS[status]}
    </span>
  )
}
