import { Link } from 'react-router'

/**
 * An item's tags, each linking to its tag page (tags are normalised, one path segment each),
 * spaced apart whatever box they are put in.
 */
export function TagLinks({ tags }: { tags: readonly string[] }) {
  return (
    <span data-tag-links className="inline-flex flex-wrap gap-x-2 gap-y-1">
      {tags.map((tag) => (
        <Link
          key={tag}
          to={`/tags/${encodeURIComponent(tag)}`}
          className="text-slate-600 hover:underline dark:text-slate-400"
        >
          #{tag}
        </Link>
      ))}
    </span>
  )
}
