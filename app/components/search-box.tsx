import { useId } from 'react'
import { Form } from 'react-router'
import { SEARCH_QUERY_MAX_LENGTH } from '#features/search/limits.ts'

// Its own module: the header shows it on every page, which need not load the result list.
/** A search box that submits `q` to `action` with a plain GET, so it works before hydration. */
export function SearchBox(props: {
  action: string
  defaultValue?: string
  label: string
  /** What the empty box suggests typing; every box says something. */
  placeholder?: string
  className?: string
}) {
  // The header's box and a page's own can both search /search: ids and landmark names differ.
  const id = useId()
  return (
    <Form
      method="get"
      action={props.action}
      role="search"
      aria-label={props.label}
      className={props.className}
    >
      <div className="flex gap-1">
        <label className="sr-only" htmlFor={id}>
          {props.label}
        </label>
        <input
          id={id}
          type="search"
          name="q"
          defaultValue={props.defaultValue}
          placeholder={props.placeholder ?? 'キーワードを入力'}
          maxLength={SEARCH_QUERY_MAX_LENGTH}
          className={`min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm placeholder:text-slate-500 dark:border-slate-600 dark:bg-slate-900 dark:placeholder:text-slate-400`}
        />
        <button
          type="submit"
          className="shrink-0 rounded-md border border-slate-300 px-3 py-2 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          検索
        </button>
      </div>
    </Form>
  )
}
