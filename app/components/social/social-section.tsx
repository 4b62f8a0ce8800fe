import type { ContentKind } from '#db/schema.ts'
import type { SocialView } from '#features/social/social-view.server.ts'
import { CommentSection } from './comment-section.tsx'
import { LikeButton } from './like-button.tsx'

/**
 * Likes and comments under an item of any kind; its page's loader reads `social`. A draft has
 * none (the server refuses them until it is published), so its author sees no widgets for them.
 */
export function SocialSection(props: {
  kind: ContentKind
  id: string
  social: SocialView
  signedIn: boolean
  published: boolean
}) {
  if (!props.published) return null
  return (
    <>
      <div className="mt-10 border-t border-slate-200 pt-6 dark:border-slate-800">
        <LikeButton
          kind={props.kind}
          id={props.id}
          initial={props.social.likes}
          signedIn={props.signedIn}
        />
      </div>
      <CommentSection
        kind={props.kind}
        id={props.id}
        firstPage={props.social.comments}
        signedIn={props.signedIn}
      />
    </>
  )
}
