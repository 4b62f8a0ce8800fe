import { data, Link } from 'react-router'
import { actionLinkClass, ContentHeader } from '#app/components/labs/content-header.tsx'
import { LabList } from '#app/components/labs/lab-list.tsx'
import { MarkdownView } from '#app/components/markdown-view.tsx'
import { LIST_PAGE_SIZE } from '#app/components/published-list.tsx'
import { COMMENT_PAGE_SIZE } from '#app/components/social/comment-section.tsx'
import { SocialSection } from '#app/components/social/social-section.tsx'
import { pagesOf } from '#app/lib/api/lists.ts'
import { contentForPage, viewerCacheControl } from '#app/lib/content-response.server.ts'
import { errorMeta, shareableMeta } from '#app/lib/meta.ts'
import { useStorageSettings } from '#app/lib/root-data.ts'
import { publicObjectUrl } from '#app/lib/storage/storage-settings.ts'
import { actorOf } from '#features/actor.ts'
import { contentPath, createPathOf, editPath } from '#features/content-kinds.ts'
import { listPublishedLabStories } from '#features/labs/lab-lists.server.ts'
import { readLabForViewer } from '#features/labs/lab-view.server.ts'
import { plainExcerpt } from '#features/markdown/excerpt.ts'
import { renderedHtmlOf } from '#features/markdown/stored-html.server.ts'
import { socialView } from '#features/social/social-view.server.ts'
import type { Route } from './+types/lab'

/** Not found, forbidden or broken: said inside the layout, with the header still there. */
export { ContentErrorBoundary as ErrorBoundary } from '#app/components/error-page.tsx'

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  loaderData
    ? shareableMeta(matches, {
        title: loaderData.lab.title,
        description: loaderData.excerpt || `${loaderData.lab.author.displayName} さんのラボ`,
        path: contentPath('lab', loaderData.lab.author.username, loaderData.lab.id),
        imageKey: loaderData.lab.screenshotKeys[0],
      })
    : errorMeta(matches, error)

/** A lab with its screenshots, links, description and stories; drafts only for their owner. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const user = await context.auth.currentUser(request)
  const viewer = actorOf(user)
  const { description, ...lab } = await contentForPage(
    readLabForViewer(context.db, { username: params.user, labId: params.id }, viewer),
    new URL(request.url).pathname,
  )
  const social = await socialView(
    context.db,
    context.markdown,
    viewer,
    { kind: 'lab', id: lab.id },
    COMMENT_PAGE_SIZE,
  )
  const stories = await listPublishedLabStories(
    context.db,
    { limit: LIST_PAGE_SIZE },
    { labId: lab.id },
  )
  return data(
    {
      lab,
      excerpt: plainExcerpt(description),
      descriptionHtml: await renderedHtmlOf(context.db, context.markdown, {
        kind: 'lab',
        id: lab.id,
        source: description,
      }),
      stories,
      viewer: user?.username ?? null,
      social,
    },
    { headers: viewerCacheControl(user !== undefined) },
  )
}

export default function LabPage({ loaderData }: Route.ComponentProps) {
  const { lab, descriptionHtml, stories, viewer, social } = loaderData
  const storage = useStorageSettings()
  const labPath = contentPath('lab', lab.author.username, lab.id)
  return (
    <article className="mx-auto max-w-3xl">
      <ContentHeader kind="lab" section={{ to: '/labs', label: 'ラボ' }} item={lab} path={labPath}>
        {lab.demoUrl && (
          <a
            href={lab.demoUrl}
            rel="noopener noreferrer nofollow"
            target="_blank"
            className="rounded-md bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700"
          >
            デモを開く
          </a>
        )}
        {lab.repositoryUrl && (
          <a
            href={lab.repositoryUrl}
            rel="noopener noreferrer nofollow"
            target="_blank"
            className={actionLinkClass}
          >
            リポジトリ
          </a>
        )}
        {lab.canEdit && (
          <Link to={editPath('lab', lab.author.username, lab.id)} className={actionLinkClass}>
            編集する
          </Link>
        )}
        {viewer === lab.author.username && (
          <Link
            to={`${createPathOf('lab_story', viewer)}?lab=${lab.id}`}
            className={actionLinkClass}
          >
            このラボのストーリーを書く
          </Link>
        )}
      </ContentHeader>
      {lab.screenshotKeys.length > 0 && (
        <section aria-label="スクリーンショット" className="mt-8 grid gap-3 sm:grid-cols-2">
          {lab.screenshotKeys.map((key, index) => (
            <img
              key={key}
              src={publicObjectUrl(storage, key)}
              alt={`${lab.title} のスクリーンショット ${index + 1}`}
              className="w-full rounded-lg border border-slate-200 dark:border-slate-800"
            />
          ))}
        </section>
      )}
      <section aria-label="説明" className="mt-10">
        <MarkdownView html={descriptionHtml} />
      </section>
      <section aria-labelledby="lab-stories-heading" className="mt-12">
        <h2 id="lab-stories-heading" className="text-xl font-bold">
          このラボのストーリー
        </h2>
        <LabList
          kind="labs_stories"
          firstPage={stories}
          pages={pagesOf('labs.stories', { labId: lab.id })}
        />
      </section>
      <SocialSection
        kind="lab"
        id={lab.id}
        social={social}
        signedIn={viewer !== null}
        published={lab.status === 'published'}
      />
    </article>
  )
}
