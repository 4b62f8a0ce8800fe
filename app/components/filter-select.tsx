/** The filters of a list page (/courses, /exercises) as query parameters, the unset ones left out. */
export function filterParams(filters: Record<string, string | undefined>): URLSearchParams {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value)
  return params
}

export const selectClass =
  'rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-600 dark:bg-slate-900'

/** One filter: 「すべて」 (no filter) and the options as [value, label]; keyed by the value in force so a navigation (back, a link) shows it. */
export function FilterSelect(props: {
  label: string
  name: string
  value: string | undefined
  options: readonly (readonly [string, string])[]
}) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      {props.label}
      <select
        key={props.value ?? ''}
        name={props.name}
        defaultValue={props.value ?? ''}
        className={selectClass}
      >
        <option value="">すべて</option>
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </label>
  )
}
