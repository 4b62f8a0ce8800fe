/** A person's picture, or the first letter of their name when they have none. */
export function Avatar(props: { name: string; url: string | null; size: 'small' | 'large' }) {
  const box = props.size === 'small' ? 'size-8 text-sm' : 'size-20 text-3xl'
  if (props.url) {
    return (
      <img
        src={props.url}
        alt=""
        className={`${box} shrink-0 rounded-full bg-slate-100 object-cover dark:bg-slate-800`}
      />
    )
  }
  return (
    <span
      aria-hidden="true"
      className={`${box} grid shrink-0 place-items-center rounded-full bg-brand-100 font-bold text-brand-700 dark:bg-slate-700 dark:text-brand-100`}
    >
      {initialOf(props.name)}
    </span>
  )
}

function initialOf(name: string): string {
  return [...name.trim()][0]?.toUpperCase() ?? '?'
}
