import { Link } from 'react-router'
import type { SearchResult } from '#features/search/search-result.ts'
import { Byline } from './byline.tsx'

const KIND_LABELS: Record<SearchResult['kind'], string> = {
  course: 'コース',
  study: 'スタディ',
  lab: 'ラボ',
  lab_story: 'ラボストーリー',
}

/**
 * Search hits; `titleHtml` and `snippetHtml` are escaped by features/search/snippet.ts and
 * carry no markup but <mark>, so they are set as HTML.
 */
export function SearchResultList({ results }: { results: SearchResult[] }) {
  return (
    <ol className="mt-6 flex flex-col gap-4" aria-label="検索結果">
      {results.map((result) => (
        <li
          key={`${result.kind}:${result.id}`}
          className="rounded-xl border border-slate-200 p-5 dark:border-slate-800"
        >
          <p className="text-xs font-semibold text-brand-600 dark:text-brand-100">
            {KIND_LABELS[result.kind]}
          </p>
          <h2 className="mt-1 text-lg font-semibold">
            <Link
              to={result.url}
              className="hover:underline"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped text with <mark> only
              dangerouslySetInnerHTML={{ __html: result.titleHtml }}
            />
          </h2>
          {result.lesson && (
            <p className="mt-1 text-sm">
              {'レッスン: '}
              <Link
                to={result.lesson.url}
                className="text-brand-600 hover:underline dark:text-brand-100"
                // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped text with <mark> only
                dangerouslySetInnerHTML={{ __html: result.lesson.titleHtml }}
              />
            </p>
          )}
          <p
            className="mt-2 text-sm text-slate-600 dark:text-slate-400 [&_mark]:bg-amber-200 [&_mark]:text-inherit dark:[&_mark]:bg-amber-300 dark:[&_mark]:text-slate-950"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped text with <mark> only
            dangerouslySetInnerHTML={{ __html: result.snippetHtml }}
          />
          <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
            <Byline author={result.author} publishedAt={result.publishedAt} />
          </p>
        </li>
      ))}
    </ol>
  )
}
