import { data, Link } from 'react-router'
import { actionLinkClass, ContentHeader } from '#app/components/labs/content-header.tsx'
import { MarkdownView } from '#app/components/markdown-view.tsx'
import { COMMENT_PAGE_SIZE } from '#app/components/social/comment-section.tsx'
import { SocialSection } from '#app/components/social/social-section.tsx'
import { contentForPage, viewerCacheControl } from '#app/lib/content-response.server.ts'
import { errorMeta, shareableMeta } from '#app/lib/meta.ts'
import { useStorageSettings } from '#app/lib/root-data.ts'
import { publicObjectUrl } from '#app/lib/storage/storage-settings.ts'
import { actorOf } from '#features/actor.ts'
import { contentPath, editPath } from '#features/content-kinds.ts'
import { readLabStoryForViewer } from '#features/labs/lab-view.server.ts'
import { plainExcerpt } from '#features/markdown/excerpt.ts'
import { renderedHtmlOf } from '#features/markdown/stored-html.server.ts'
import { socialView } from '#features/social/social-view.server.ts'
import type { Route } from './+types/story'

/** Not found, forbidden or broken: said inside the layout, with the header still there. */
export { ContentErrorBoundary as ErrorBoundary } from '#app/components/error-page.tsx'

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  loaderData
    ? shareableMeta(matches, {
        title: loaderData.story.title,
        description:
          loaderData.excerpt || `${loaderData.story.author.displayName} さんのストーリー`,
        path: storyPath(loaderData.story),
        imageKey: loaderData.story.coverKey,
      })
    : errorMeta(matches, error)

const storyPath = (story: { id: string; author: { username: string } }) =>
  contentPath('lab_story', story.author.username, story.id)

/** A lab story with its cover, body and lab; drafts only for their owner (anyone else: 404). */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const user = await context.auth.currentUser(request)
  const viewer = actorOf(user)
  const { body, ...story } = await contentForPage(
    readLabStoryForViewer(context.db, { username: params.user, storyId: params.id }, viewer),
    new URL(request.url).pathname,
  )
  const social = await socialView(
    context.db,
    context.markdown,
    viewer,
    { kind: 'lab_story', id: story.id },
    COMMENT_PAGE_SIZE,
  )
  // Rendered (and sanitised) once on the server; the browser only shows the HTML.
  return data(
    {
      story,
      excerpt: plainExcerpt(body),
      bodyHtml: await renderedHtmlOf(context.db, context.markdown, {
        kind: 'lab_story',
        id: story.id,
        source: body,
      }),
      social,
      signedIn: user !== undefined,
    },
    { headers: viewerCacheControl(user !== undefined) },
  )
}

export default function LabStoryPage({
  loaderData: { story, bodyHtml, social, signedIn },
}: Route.ComponentProps) {
  const storage = useStorageSettings()
  return (
    <article className="mx-auto max-w-3xl">
      <ContentHeader
        kind="lab_story"
        section={{ to: '/labs_stories', label: 'ストーリー' }}
        item={story}
        path={storyPath(story)}
      >
        {story.lab && (
          <Link
            to={contentPath('lab', story.author.username, story.lab.id)}
            className={actionLinkClass}
          >
            ラボ「{story.lab.title}」
          </Link>
        )}
        {story.canEdit && (
          <Link
            to={editPath('lab_story', story.author.username, story.id)}
            className={actionLinkClass}
          >
            編集する
          </Link>
        )}
      </ContentHeader>
      {story.coverKey && (
        <img
          src={publicObjectUrl(storage, story.coverKey)}
          alt=""
          className="mt-8 aspect-video w-full rounded-lg object-cover"
        />
      )}
      <section aria-label="本文" className="mt-10">
        <MarkdownView html={bodyHtml} />
      </section>
      <SocialSection
        kind="lab_story"
        id={story.id}
        social={social}
        signedIn={signedIn}
        published={story.status === 'published'}
      />
    </article>
  )
}
