/** "n / m 問正解" with a bar: the study page, its exercises and the home page's cards. */
export function SolvedCount({ solved, total }: { solved: number; total: number }) {
  return (
    <span className="inline-flex items-center gap-2 text-sm" data-solved={`${solved}/${total}`}>
      <span
        role="progressbar"
        aria-label="正解した問題"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={solved}
        className="h-2 w-24 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <span
          className="block h-full bg-emerald-600"
          style={{ width: `${total === 0 ? 0 : Math.round((solved / total) * 100)}%` }}
        />
      </span>
      <span className="font-semibold">
        {solved} / {total} 問正解
      </span>
    </span>
  )
}
