import { apiFetch } from '#app/lib/api-client.ts'
import type { ContentKind } from '#db/schema.ts'
import type { CommentPage, CommentView } from '#features/social/comments.server.ts'
import type { LikeState } from '#features/social/likes.server.ts'

/** The like and comment components' calls to /api (the same feature functions the pages use). */
export function socialApi(baseUrl: string, kind: ContentKind, id: string) {
  const send = <T>(method: string, path: string, body?: unknown) =>
    apiFetch<T>(baseUrl, path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const subject = `${kind}/${encodeURIComponent(id)}`
  return {
    like: () => send<LikeState>('PUT', `/likes/${subject}`),
    unlike: () => send<LikeState>('DELETE', `/likes/${subject}`),
    comments: (cursor: string, limit: number) =>
      send<CommentPage>(
        'GET',
        `/comments/${subject}?limit=${limit}&cursor=${encodeURIComponent(cursor)}`,
      ),
    post: (body: string, parentId?: string) =>
      send<CommentView>('POST', `/comments/${subject}`, { body, parentId }),
    update: (commentId: string, body: string) =>
      send<CommentView>('PUT', `/comments/${encodeURIComponent(commentId)}`, { body }),
    remove: (commentId: string) =>
      send<void>('DELETE', `/comments/${encodeURIComponent(commentId)}`),
  }
}

export type SocialApi = ReturnType<typeof socialApi>
