import { Form, useSubmit } from 'react-router'

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

/** The tag filter: the most used tags, and the one in force when a link chose another. */
export function TagFilter({ tags, value }: { tags: readonly string[]; value: string | undefined }) {
  return (
    <FilterSelect
      label="タグ"
      name="tag"
      value={value}
      options={[...(value && !tags.includes(value) ? [value] : []), ...tags].map((tag) => [
        tag,
        tag,
      ])}
    />
  )
}

/**
 * A list page's filters as a GET form, so the state is the URL (shareable, back button). With
 * scripts on, a change applies at once; the button serves the rest.
 */
export function FilterForm(props: {
  /** The list page's path, where 「条件をクリア」 goes too. */
  action: string
  label: string
  filters: Record<string, string | undefined>
  children: React.ReactNode
}) {
  const submit = useSubmit()
  return (
    <Form
      method="get"
      action={props.action}
      aria-label={props.label}
      className="mt-4 flex flex-wrap items-end gap-3"
      onChange={(event) => submit(event.currentTarget, { preventScrollReset: true })}
    >
      {props.children}
      <button type="submit" className={selectClass}>
        絞り込む
      </button>
      {filterParams(props.filters).size > 0 && (
        <a
          href={props.action}
          className="py-2 text-sm text-brand-600 hover:underline dark:text-sky-300"
        >
          条件をクリア
        </a>
      )}
    </Form>
  )
}
