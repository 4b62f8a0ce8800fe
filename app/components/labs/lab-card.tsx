import { Link } from 'react-router'
import { Byline } from '#app/components/byline.tsx'
import { TagLinks } from '#app/components/tag-links.tsx'
import { useStorageSettings } from '#app/lib/root-data.ts'
import { publicObjectUrl } from '#app/lib/storage/storage-settings.ts'
import { contentPath } from '#features/content-kinds.ts'
import type { LabCard as Card } from '#features/labs/lab-lists.server.ts'

/** A lab or a lab story in a list: its picture, title, opening words, tags and author. */
export function LabCard({ item, path }: { item: Card; path: 'labs' | 'labs_stories' }) {
  const storage = useStorageSettings()
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 transition hover:border-brand-500 hover:shadow-sm dark:border-slate-800">
      {item.imageKey && (
        <img
          src={publicObjectUrl(storage, item.imageKey)}
          alt=""
          loading="lazy"
          className="aspect-video w-full object-cover"
        />
      )}
      <div className="flex flex-1 flex-col p-5">
        <h3 className="text-lg font-semibold leading-snug">
          <Link
            to={contentPath(path === 'labs' ? 'lab' : 'lab_story', item.author.username, item.id)}
            className="hover:underline"
            prefetch="intent"
          >
            {item.title}
          </Link>
        </h3>
        <p className="mt-2 line-clamp-3 flex-1 text-sm text-slate-600 dark:text-slate-400">
          {item.excerpt}
        </p>
        <p className="mt-3 flex flex-wrap gap-2 text-xs">
          <TagLinks tags={item.tags} />
        </p>
        <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
          <Byline author={item.author} publishedAt={item.publishedAt} />
        </p>
      </div>
    </article>
  )
}
