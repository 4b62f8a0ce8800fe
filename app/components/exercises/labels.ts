import type { CodeLanguage } from '#features/exercises/code-run.ts'
import type { QuestionKind } from '#features/exercises/question-limits.ts'

// Light on purpose: the answer cards of guest pages use these (the first-load budget).

export const KIND_LABELS: Record<QuestionKind, string> = {
  single: '単一選択',
  multiple: '複数選択',
  text: '記述（短い答え）',
  code: 'コード',
}

export const LANGUAGE_LABELS: Record<CodeLanguage, string> = {
  javascript: 'JavaScript',
  python: 'Python',
}

/** The text inputs of the answer cards (the editors' look, without importing an editor). */
export const answerInputClass =
  'rounded-md border border-slate-300 bg-white px-3 py-2 text-base dark:border-slate-600 dark:bg-slate-950'
