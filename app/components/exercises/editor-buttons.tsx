/** The small secondary buttons of the exercise editors (move, remove, add). */
export const smallButton =
  'rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 disabled:opacity-40 dark:border-slate-600 dark:hover:bg-slate-800'
