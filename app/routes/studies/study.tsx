import { data, Link } from 'react-router'
import { SolvedCount } from '#app/components/exercises/solved-count.tsx'
import { MarkdownView } from '#app/components/markdown-view.tsx'
import { HiddenNotice, ReportButton } from '#app/components/moderation/moderation-marks.tsx'
import { ShareButtons } from '#app/components/share-buttons.tsx'
import { COMMENT_PAGE_SIZE } from '#app/components/social/comment-section.tsx'
import { SocialSection } from '#app/components/social/social-section.tsx'
import { TagLinks } from '#app/components/tag-links.tsx'
import { contentForPage, viewerCacheControl } from '#app/lib/content-response.server.ts'
import { formatDate } from '#app/lib/format.ts'
import { errorMeta, shareableMeta } from '#app/lib/meta.ts'
import { actorOf } from '#features/actor.ts'
import { contentPath, editPath, exercisesPath, profilePath } from '#features/content-kinds.ts'
import { renderedHtmlOf } from '#features/markdown/stored-html.server.ts'
import { socialView } from '#features/social/social-view.server.ts'
import { readStudyForViewer } from '#features/studies/study-view.server.ts'
import type { Route } from './+types/study'

/** Not found, forbidden or broken: said inside the layout, with the header still there. */
export { ContentErrorBoundary as ErrorBoundary } from '#app/components/error-page.tsx'

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  loaderData
    ? shareableMeta(matches, {
        title: loaderData.study.title,
        description:
          loaderData.study.summary || `${loaderData.study.author.displayName} さんのスタディ`,
        path: contentPath('study', loaderData.study.author.username, loaderData.study.id),
      })
    : errorMeta(matches, error)

/** A study with its notes; drafts only for their owner (anyone else gets 404). */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const user = await context.auth.currentUser(request)
  const viewer = actorOf(user)
  const { notes, ...study } = await contentForPage(
    readStudyForViewer(context.db, { username: params.user, studyId: params.id }, viewer),
    new URL(request.url).pathname,
  )
  const social = await socialView(
    context.db,
    context.markdown,
    viewer,
    { kind: 'study', id: study.id },
    COMMENT_PAGE_SIZE,
  )
  // Rendered (and sanitised) once on the server; the browser only shows the HTML.
  return data(
    {
      study,
      notesHtml: await renderedHtmlOf(context.db, context.markdown, {
        kind: 'study',
        id: study.id,
        source: notes,
      }),
      social,
      signedIn: user !== undefined,
    },
    { headers: viewerCacheControl(user !== undefined) },
  )
}

export default function StudyPage({
  loaderData: { study, notesHtml, social, signedIn },
}: Route.ComponentProps) {
  const studyPath = contentPath('study', study.author.username, study.id)
  const { exercises } = study
  return (
    <article className="mx-auto max-w-3xl">
      <nav aria-label="パンくずリスト" className="text-sm text-slate-500 dark:text-slate-400">
        <Link to="/studies" className="hover:underline">
          スタディ
        </Link>
        <span aria-hidden="true"> / </span>
        <span>{study.title}</span>
      </nav>
      <header className="mt-4">
        <div className="flex flex-wrap items-center gap-2 text-xs">
          {study.status === 'draft' && (
            <span className="rounded-full bg-slate-800 px-2 py-0.5 font-semibold text-white dark:bg-slate-200 dark:text-slate-900">
              下書き
            </span>
          )}
          <TagLinks tags={study.tags} />
        </div>
        <HiddenNotice hidden={study.hidden} what="スタディ" />
        <h1 className="mt-3 text-3xl font-bold leading-tight">{study.title}</h1>
        {study.summary && (
          <p className="mt-4 whitespace-pre-line text-slate-700 dark:text-slate-300">
            {study.summary}
          </p>
        )}
        <p className="mt-4 text-sm text-slate-500 dark:text-slate-400">
          <Link to={profilePath(study.author.username)} className="hover:underline">
            {study.author.displayName}
          </Link>
          {study.publishedAt !== null && (
            <>
              <span aria-hidden="true"> ・ </span>
              <time dateTime={new Date(study.publishedAt).toISOString()}>
                {formatDate(study.publishedAt)} 公開
              </time>
            </>
          )}
        </p>
        <div className="mt-6 flex flex-wrap items-center gap-3">
          <Link
            to={exercisesPath(study.author.username, study.id)}
            className="rounded-md bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700"
          >
            このスタディの演習{exercises.total > 0 && `（${exercises.total} 問）`}
          </Link>
          {signedIn && exercises.total > 0 && (
            <SolvedCount solved={exercises.solved} total={exercises.total} />
          )}
          {study.canEdit && (
            <Link
              to={`${exercisesPath(study.author.username, study.id)}/edit`}
              className="rounded-md border border-slate-300 px-4 py-2.5 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
            >
              演習を編集する
            </Link>
          )}
          {study.canEdit && (
            <Link
              to={editPath('study', study.author.username, study.id)}
              className="rounded-md border border-slate-300 px-4 py-2.5 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
            >
              編集する
            </Link>
          )}
        </div>
        {study.status === 'published' && (
          <div className="mt-6">
            <ShareButtons path={studyPath} title={study.title} />
            <ReportButton kind="study" id={study.id} ownerUsername={study.author.username} />
          </div>
        )}
      </header>
      <section aria-label="ノート" className="mt-10">
        <MarkdownView html={notesHtml} />
      </section>
      <SocialSection
        kind="study"
        id={study.id}
        social={social}
        signedIn={signedIn}
        published={study.status === 'published'}
      />
    </article>
  )
}
