import { Link } from 'react-router'

/** An item's tags, each linking to its tag page (tags are normalised, one path segment each). */
export function TagLinks({ tags }: { tags: readonly string[] }) {
  return (
    <>
      {tags.map((tag) => (
        <Link
          key={tag}
          to={`/tags/${encodeURIComponent(tag)}`}
          className="text-slate-600 hover:underline dark:text-slate-400"
        >
          #{tag}
        </Link>
      ))}
    </>
  )
}
